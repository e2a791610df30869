import { TOKEN_SCOPES } from '../auth/token-scopes';
import { DECLARED_OPERATIONS } from '../operations/catalogue';
import { pathItemsOf } from '../operations/openapi-paths';
import type { JsonSchema, OpenApiDocument, Parameter, Response } from './schema-types';
import {
  USER_ROLES,
  WEBHOOK_FORMATS,
  arrayOf,
  bool,
  int,
  json,
  nullableStr,
  object,
  query,
  ref,
  str,
  timestamp,
} from './openapi-parts';

/**
 * The HTTP API as the gateway serves it, in OpenAPI 3.1: Zealot's 1.3
 * interface plus what docs/api-contract.md settles. Served at
 * `GET /api/openapi.json`. Every response of the end-to-end suite is checked
 * against it (libs/testing's validator), so a route, a status or a field that
 * changes without this file fails a test. Objects are closed
 * (`additionalProperties: false`) for that reason: a field added to a
 * presenter must be added here too.
 */

const WEBHOOK_FORMAT: JsonSchema = {
  type: 'string',
  enum: WEBHOOK_FORMATS,
  description: "The body's shape: `generic` (Hangar's signed JSON) or the message a chat platform's incoming webhook posts (docs/events.md, Chat presets).",
};





// ---------------------------------------------------------------- schemas


/** What a token may do and where it was last used. */
const TOKEN_LIMIT_FIELDS: Record<string, JsonSchema> = {
  last_used_at: { ...timestamp, type: ['string', 'null'], description: 'Last use, to within a minute (and the token cache\'s age, AUTH_CACHE_MAX_AGE_MS).' },
  last_used_address: { type: ['string', 'null'], description: 'The client address of the last use (X-Forwarded-For as the gateway trusts it).' },
  scopes: { type: 'array', items: { type: 'string', enum: [...TOKEN_SCOPES] }, description: 'Empty: every right of its user. Otherwise the operations it may call are those listing one of these in `x-hangar-scopes`.' },
  app_ids: { type: 'array', items: { type: 'integer' }, description: 'Empty: every app of its user. Otherwise anything on another app is 403.' },
  expires_at: { ...timestamp, type: ['string', 'null'], description: 'After this the token is refused (401); null: never.' },
};

const USER_PROPERTIES: Record<string, JsonSchema> = {
  id: int(),
  username: str(),
  email: { type: 'string', format: 'email' },
  locale: { type: 'string', enum: ['zh-CN', 'en'] },
  appearance: { type: 'string', enum: ['light', 'dark', 'auto'] },
  timezone: str("One of the seed's time zone names, e.g. Etc/UTC."),
  role: { type: 'string', enum: USER_ROLES },
  created_at: timestamp,
  updated_at: timestamp,
};

/** A changed password ends the user's console sessions. */
const SESSIONS_ENDED: JsonSchema = {
  type: 'string',
  enum: ['all', 'others'],
  description: "Which of the user's console sessions the password change ended: `others` when the user changed their own password from a console session, which stays signed in; else `all`.",
};

const schemas: Record<string, JsonSchema> = {
  AuditEntry: object(
    {
      id: str(),
      at: timestamp,
      user_id: { type: ['integer', 'null'], description: 'Null when the write was refused before anyone was known (401).' },
      token_id: { type: ['integer', 'null'], description: 'The personal access token used, if any.' },
      operation: str('The operationId.'),
      method: str(),
      path: str(),
      resource_ids: { type: 'object', additionalProperties: { type: 'string' }, description: 'Path parameters by name.' },
      app_id: { type: ['integer', 'null'], description: 'The app concerned, when the path or the answer names it.' },
      fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Body fields sent; password, token and secret fields are `[redacted]`, long values cut.' },
      address: str('Client address.'),
      request_id: str('The X-Request-Id of the write.'),
      status: int(),
    },
    [],
    'One write through the API, allowed or refused.',
  ),
  Error: object(
    {
      error: str('What went wrong, for people.'),
      entry: { type: 'object', description: 'Field problems of a validation error: field → messages.', additionalProperties: arrayOf(str()) },
    },
    ['entry'],
    'Every error: 4xx and 503.',
  ),
  Deleted: object({ mesage: { type: 'string', const: 'OK', description: 'Spelled so (the seed): existing clients read it.' } }),
  VersionInfo: object({ version: str('Software version'), vcs_ref: str('Source revision'), build_date: str('Build timestamp, ISO 8601') }),
  Health: object(
    {
      healthy: bool('Every service answers its gRPC health check and every dependency in `checks` is ok.'),
      services: object({ users: bool(), apps: bool(), releases: bool(), debugFiles: bool(), webhooks: bool() }),
      checks: object(
        { database: { type: 'string', enum: ['ok', 'unavailable'] }, storage: { type: 'string', enum: ['ok', 'unavailable'] }, events: { type: 'string', enum: ['ok', 'unavailable'] } },
        [],
        'Each dependency as the services reach it (MongoDB-wire, S3, NATS): `unavailable` when one service that uses it cannot reach it. Checked by each service when asked, at most once a second.',
      ),
    },
    [],
    'Answered from a copy at most a second old. For readiness probes; liveness is each process\'s own health (docs/operations.md).',
  ),
  User: object(USER_PROPERTIES, [], 'Never a password.'),
  UpdatedUser: object({ ...USER_PROPERTIES, sessions_ended: SESSIONS_ENDED }, ['sessions_ended'], 'Never a password. `sessions_ended` only when the update changed the password.'),
  OtherSessionsEnded: object({ mesage: { type: 'string', const: 'OK' }, ended: int('How many other sessions were ended.') }),
  PasswordChanged: object({ mesage: { type: 'string', const: 'OK' }, sessions_ended: SESSIONS_ENDED }),
  Me: object(
    {
      id: int(),
      username: str(),
      email: { type: 'string', format: 'email' },
      locale: { type: 'string', enum: ['zh-CN', 'en'] },
      appearance: { type: 'string', enum: ['light', 'dark', 'auto'] },
      timezone: str("One of the seed's time zone names, e.g. Etc/UTC."),
      role: { type: 'string', enum: USER_ROLES },
      must_change_password: bool('The password was generated at first start (bootstrap admin): the console asks for a new one. Cleared when a different password is set.'),
      created_at: timestamp,
      updated_at: timestamp,
    },
    [],
    'The caller\'s own account: a User and what only its owner needs. Never a password.',
  ),
  Token: object(
    {
      id: int(),
      name: str(),
      hint: str('The last characters of the token, after an ellipsis: the token itself is shown only once.'),
      created_at: timestamp,
      ...TOKEN_LIMIT_FIELDS,
    },
    [],
    'A personal access token, without its value.',
  ),
  Session: object(
    {
      id: int(),
      user_agent: str('The browser that signed in'),
      address: { type: ['string', 'null'], description: 'The client address it signed in from (X-Forwarded-For as the gateway trusts it); null for sessions made before it was kept.' },
      created_at: timestamp,
      last_used_at: timestamp,
      expires_at: timestamp,
      current: bool('The session this request came with'),
    },
    [],
    'A console session, without its secret (which lives only in the HttpOnly cookie).',
  ),
  SignedIn: object(
    {
      user: ref('User'),
      csrf_token: str('Send it as X-CSRF-Token with every cookie-authenticated write (any method but GET, HEAD, OPTIONS).'),
      session: ref('Session'),
    },
    [],
  ),
  SignInOptions: object(
    {
      password_sign_in: { type: 'string', enum: ['everyone', 'admins_only'], description: '`admins_only`: single sign-on only; a password signs in global admins alone (the break-glass path, audited)' },
      single_sign_on: {
        oneOf: [
          object({ provider_name: str('For the button: "Sign in with <provider_name>"'), start_url: str('Open it in the browser (a top-level navigation) to sign in through the identity provider') }),
          { type: 'null' },
        ],
        description: 'null: no identity provider is configured',
      },
    },
    [],
    'How the console may sign in (public, for the sign-in page).',
  ),
  CreatedToken: object(
    {
      id: int(),
      name: str(),
      hint: str(),
      created_at: timestamp,
      ...TOKEN_LIMIT_FIELDS,
      token: str('The token itself: shown here once, stored only as a hash.'),
    },
    [],
  ),
  Channel: object(
    {
      id: int(),
      name: str(),
      slug: str('The channel key (`channel_key`): generated unguessable, or chosen ([A-Za-z0-9_-]{3,64}).'),
      device_type: { type: 'string', enum: ['ios', 'android', 'macos', 'windows', 'linux'] },
      bundle_id: str('`*` accepts every package id; otherwise a glob matched against the whole id.'),
      git_url: nullableStr(),
      has_password: bool('A visit password guards the install pages; it is never answered.'),
      min_supported_version: nullableStr('Installs with an older release version must update (`update_check` answers `mandatory: true`).'),
    },
  ),
  Scheme: object({
    id: int(),
    name: str(),
    new_build_callout: bool('Webhooks of the app are called for each new build.'),
    retained_builds: { type: 'integer', minimum: 0, description: 'Builds kept per channel; 0 keeps all.' },
    channels: arrayOf(ref('Channel')),
  }),
  Collaborator: object({ id: int('The user id'), username: str(), email: str(), role: { type: 'string', enum: USER_ROLES } }),
  Tester: object({
    id: int(),
    email: str(),
    state: { type: 'string', enum: ['invited', 'joined'], description: '`joined` once a sign-in link of theirs was used' },
    invited_at: timestamp,
    joined_at: { ...timestamp, type: ['string', 'null'] },
    last_download: { type: ['object', 'null'], properties: { release_id: int(), at: timestamp }, required: ['release_id', 'at'], additionalProperties: false },
  }),
  TesterGroup: object({ id: int(), app_id: int(), name: str(), channel_ids: arrayOf(int()), testers: arrayOf(ref('Tester')), created_at: timestamp }),
  TestersAdded: object({ added: arrayOf(ref('Tester')), already_members: arrayOf(str('An address that was in the group already (not invited again)')) }),
  JoinLink: object(
    { id: int(), url: str('`<base>/tester/join?token=…`: only in the answer that made the link'), expires_at: { ...timestamp, type: ['string', 'null'] }, seats: int('0: no limit'), used_seats: int(), created_at: timestamp },
    ['url'],
  ),
  Message: object({ message: str() }),
  TesterView: object({
    email: str(),
    channels: arrayOf(
      object({
        app_id: int(),
        app_name: str(),
        channel_id: int(),
        name: str(),
        device_type: str(),
        builds: arrayOf(
          object({
            id: int(),
            release_version: str(),
            build_version: str(),
            created_at: timestamp,
            install_page: str('A path of the install pages'),
            left_out_devices: { ...arrayOf(int('A device id')), description: "The tester's devices this ad hoc or development build's provisioning profile does not list: it will not install on them" },
          }),
        ),
      }),
    ),
    devices: arrayOf(ref('TesterDevice')),
  }),
  TesterDevice: object(
    {
      id: int(),
      name: str('Given by the tester (at first the model)'),
      udid: str(),
      product: str("Apple's model identifier, `iPhone15,2`"),
      os_version: str('The iOS build the device reported'),
      registered_at: timestamp,
      tester_email: str('In the channel list of an app\'s admins only'),
    },
    ['tester_email'],
  ),
  ChannelTesterDevices: object({
    latest_build: {
      type: ['object', 'null'],
      properties: { id: int(), release_version: str(), build_version: str(), profile_lists_devices: bool('An ad hoc or development build: installs only on the devices its profile lists') },
      required: ['id', 'release_version', 'build_version', 'profile_lists_devices'],
      additionalProperties: false,
      description: "The channel's newest build; null when it has none",
    },
    devices: arrayOf(ref('ChannelTesterDevice')),
    missing: int('Devices the newest build leaves out'),
    apple_device_list: str("The devices left out, in the file Apple's developer portal takes (Devices → Register Multiple Devices): tab-separated, with its header"),
  }),
  ChannelTesterDevice: object({
    id: int(),
    name: str(),
    udid: str(),
    product: str(),
    os_version: str(),
    registered_at: timestamp,
    tester_email: str(),
    in_latest_build: { type: ['string', 'null'], enum: ['in', 'out', 'unknown', null], description: '`unknown`: the profile lists more devices than are kept; null: the newest build does not restrict installs by device (or there is none)' },
  }),
  App: object(
    { id: int(), name: str(), schemes: arrayOf(ref('Scheme')), collaborators: arrayOf(ref('Collaborator')) },
    ['collaborators'],
    '`collaborators` in single-app answers (create, get, update), not in lists.',
  ),
  AppRef: object({ id: int(), name: str() }),
  SchemeRef: object({ id: int(), name: str() }),
  ChannelSummary: object({
    slug: str(),
    name: str(),
    device_type: { type: 'string', enum: ['ios', 'android', 'macos', 'windows', 'linux'] },
    bundle_id: str(),
    git_url: nullableStr(),
    has_password: bool(),
  }),
  ChangelogEntry: object({ message: str(), author: str(), email: str(), date: str() }, ['author', 'email', 'date']),
  CustomField: object({ name: str(), value: str(), icon: str('A fontawesome class, e.g. `fa-solid fa-star`.') }, ['icon']),
  Certificate: object(
    {
      subject: str('RDNs as Node prints them, comma-separated.'),
      common_name: nullableStr(),
      sha256: str('SHA-256 of the DER certificate, `AB:CD:…` (as keytool and openssl print it).'),
      not_before: { type: ['string', 'null'], format: 'date-time' },
      expires_at: { type: ['string', 'null'], format: 'date-time' },
      expired: bool('Past `expires_at` when this answer was made.'),
    },
    [],
    'A signing certificate.',
  ),
  ProvisioningProfile: object(
    {
      type: { type: 'string', enum: ['development', 'ad_hoc', 'enterprise', 'app_store'], description: "As Xcode names it (the release's `release_type` keeps Zealot's precedence)." },
      name: nullableStr(),
      uuid: nullableStr(),
      app_id_name: nullableStr(),
      team: object({ name: nullableStr(), id: nullableStr() }),
      platforms: arrayOf(str()),
      created_at: { type: ['string', 'null'], format: 'date-time' },
      expires_at: { type: ['string', 'null'], format: 'date-time', description: 'Null when the profile has none in 1970–9999.' },
      expired: bool(),
      devices_count: int('How many devices the profile admits.'),
      devices: arrayOf(str('A device UDID')),
      devices_truncated: bool('`devices` holds the first 200 only.'),
      provisions_all_devices: bool(),
      entitlements: { type: 'object', description: 'Entitlement → its plist value as JSON (data as base64, at most 100 entries).' },
      entitlements_truncated: bool(),
    },
    [],
    'The embedded provisioning profile of an iOS or macOS build.',
  ),
  Signing: object(
    {
      schemes: arrayOf({ type: 'string', enum: ['v1', 'v2', 'v3', 'v3.1'] }),
      certificates: arrayOf(ref('Certificate')),
      certificates_truncated: bool('At most 20 are listed.'),
      profile: { anyOf: [ref('ProvisioningProfile'), { type: 'null' }] },
    },
    [],
    'Who signed the build: Android signature schemes and certificates; Apple profile and its developer certificates.',
  ),
  AndroidDetails: object({
    min_sdk_version: { type: ['integer', 'null'] },
    target_sdk_version: { type: ['integer', 'null'] },
    permissions: arrayOf(str()),
    native_abis: arrayOf(str('lib/<abi>/ folders with native code')),
  }),
  Release: object(
    {
      id: int(),
      version: int('Sequence number of the release in its channel.'),
      app_name: str(),
      bundle_id: str('iOS bundle id, Android package name, …'),
      release_version: str(),
      build_version: str(),
      release_type: str('As given, or parsed (iOS: AdHoc, Enterprise, Development, AppStore).'),
      source: str('Default `api`.'),
      branch: str(),
      git_commit: str(),
      ci_url: str(),
      size: int('Bytes'),
      platform: { type: 'string', enum: ['iOS', 'Android', 'macOS', 'Windows', 'Linux'] },
      device_type: str('iPhone, iPad, Universal, Phone, Tablet, TV, Watch, …'),
      min_os_version: str(),
      icon_url: { type: 'string', format: 'uri' },
      release_url: { type: 'string', format: 'uri', description: 'The install page.' },
      install_url: { type: 'string', format: 'uri', description: 'iOS: `itms-services://?action=download-manifest&url=…`; others: a download URL.' },
      qrcode_url: { type: 'string', format: 'uri', description: 'PNG of the release page URL; `size` query parameter.' },
      changelog: arrayOf(ref('ChangelogEntry')),
      text_changelog: str('`- message` lines.'),
      custom_fields: arrayOf(ref('CustomField')),
      debug_files: {
        ...arrayOf(ref('DebugFileLink')),
        description: "The live debug files of this version and build in its channel, newest upload first. Left out when the debug-files service did not answer (the rest of the answer stands).",
      },
      created_at: timestamp,
      signing: { anyOf: [ref('Signing'), { type: 'null' }], description: 'Null when the package carries no signature Hangar reads (or was parsed before it did).' },
      android: { anyOf: [ref('AndroidDetails'), { type: 'null' }], description: 'Android builds only.' },
      sha256: { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$', description: "Lowercase hex SHA-256 of the package as uploaded; null for builds uploaded before it was recorded." },
      mandatory: bool('Installs of older builds must update to this one (`update_check`).'),
      download_count: { type: 'integer', minimum: 0, description: 'Package downloads and iOS manifest fetches through Hangar, all time (counted off the request path: a few seconds behind).' },
      app: ref('AppRef'),
      scheme: ref('SchemeRef'),
      channel: ref('ChannelSummary'),
    },
    ['app', 'scheme', 'channel', 'debug_files'],
  ),
  Teardown: object(
    {
      id: str('Random; names the result.'),
      url: { type: 'string', format: 'uri', description: 'Where the uploader reads it again until it expires.' },
      file_name: str(),
      size: int('Bytes'),
      format: { type: 'string', enum: ['ipa', 'apk', 'aab', 'app-zip', 'dmg', 'exe', 'msi', 'deb', 'rpm', 'appimage'] },
      name: str(),
      bundle_id: str(),
      release_version: str(),
      build_version: str(),
      platform: { type: 'string', enum: ['iOS', 'Android', 'macOS', 'Windows', 'Linux'] },
      device_type: str(),
      min_os_version: str(),
      release_type: str('As an upload would record it (iOS: AdHoc, Enterprise, Development, AppStore).'),
      signing: { anyOf: [ref('Signing'), { type: 'null' }] },
      android: { anyOf: [ref('AndroidDetails'), { type: 'null' }] },
      created_at: timestamp,
      expires_at: { ...timestamp, description: 'After this the result and its file are deleted (TEARDOWN_RETENTION_DAYS).' },
    },
    [],
    "A package's metadata and signing, read without creating a release.",
  ),
  DownloadDay: object({ date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day' }, total: int(), unique: int('Distinct clients that day (a salted hash of address and user agent, rotated daily; never the address): exact up to 4,096, estimated past it (standard error 0.81 %).') }),
  ReleaseStats: object({
    release_id: int(),
    total: int('Downloads and iOS manifest fetches, all time.'),
    unique: int("The sum of each day's distinct clients."),
    days: arrayOf(ref('DownloadDay')),
  }),
  UpdateCheck: object(
    {
      update_available: bool('A newer build than the installed one exists in the channel.'),
      mandatory: bool('It must be installed: the newest build or one between is mandatory, or the installed version is below the channel\'s min_supported_version.'),
      release: { oneOf: [ref('Release'), { type: 'null' }], description: 'The newest build, when `update_available`.' },
      install_url: nullableStr('iOS: `itms-services://…`; others: the download URL.'),
      download_url: nullableStr('The package.'),
    },
  ),
  VersionList: object(
    {
      id: int('The channel id'),
      app_name: str(),
      bundle_id: str("The channel's bundle id rule"),
      git_url: nullableStr(),
      app: ref('AppRef'),
      scheme: ref('SchemeRef'),
      channel: ref('ChannelSummary'),
      releases: arrayOf(ref('Release')),
    },
    [],
    'A channel with releases ("Version list (channel view)").',
  ),
  DebugFileMetadata: object(
    {
      id: int(),
      debug_file_id: int(),
      uuid: str('Mach-O UUID (iOS); empty for Android files.'),
      type: str('Architecture (arm64, …) or the Android file kind.'),
      object: str('Object or file name'),
      data: { type: 'object', description: "The parser's extras." },
      size: int(),
      created_at: timestamp,
      updated_at: timestamp,
    },
    [],
    'One Mach-O slice (iOS) or one file of a mapping archive (Android): the seed\'s "Shape B".',
  ),
  Retraced: object({ stack_trace: str('One line per output line, each ending in a newline.'), debug_file_id: int('The mapping archive used.') }),
  DebugFileLink: object(
    {
      id: int(),
      kind: { type: 'string', enum: ['dsym', 'proguard', 'elf', 'breakpad', 'pdb', 'pe'] },
      file_name: str('The name it was uploaded with.'),
      size: int('Bytes'),
      debug_ids: { ...arrayOf(str()), description: 'The ids debuggers ask with (Mach-O UUIDs, GNU build-ids, PDB GUID+age, Breakpad module ids), lowercased.' },
      file_url: { type: 'string', format: 'uri', description: 'Downloads this file; present when the answer knows the channel key.' },
    },
    ['file_url'],
    "One debug file of a release's version and build.",
  ),
  ReleaseLink: object(
    {
      id: int(),
      version: int('Sequence number of the release in its channel.'),
      release_version: str(),
      build_version: str(),
      release_url: { type: 'string', format: 'uri', description: 'The install page.' },
    },
    [],
    'A release of the same channel, version and build as a debug file.',
  ),
  DebugFile: object({
    id: int(),
    kind: { type: 'string', enum: ['dsym', 'proguard', 'elf', 'breakpad', 'pdb', 'pe'] },
    app_name: str(),
    device_type: str('ios, android, or linux (ELF debug files)'),
    release_version: str(),
    build_version: str(),
    file_url: { type: 'string', format: 'uri', description: 'Downloads this exact file (needs its channel key, which the URL carries).' },
    metadata: arrayOf(ref('DebugFileMetadata')),
    releases: {
      ...arrayOf(ref('ReleaseLink')),
      description: "The live releases of this version and build in its channel, newest upload first. Left out when the releases service did not answer (the rest of the answer stands).",
    },
    created_at: timestamp,
    updated_at: timestamp,
  }, ['releases']),
  Webhook: object(
    {
      id: int(),
      app_id: int(),
      url: { type: 'string', format: 'uri' },
      events: { ...arrayOf(str()), description: 'Event names it receives; empty: every event.' },
      format: WEBHOOK_FORMAT,
      created_at: timestamp,
    },
    [],
    'Never its secret (answered once, at creation).',
  ),
  CreatedWebhook: object({
    id: int(),
    app_id: int(),
    url: { type: 'string', format: 'uri' },
    events: arrayOf(str()),
    format: WEBHOOK_FORMAT,
    created_at: timestamp,
    secret: str('The HMAC-SHA256 signing secret: shown here once.'),
  }),
  Delivery: object(
    {
      id: int(),
      delivery_id: str('Stable across the attempts of one delivery (the X-Hangar-Delivery header).'),
      webhook_id: int(),
      event: str(),
      event_id: str(),
      attempt: int(),
      status_code: { type: ['integer', 'null'], description: 'null when no HTTP response arrived' },
      success: bool(),
      error: nullableStr(),
      duration_ms: int(),
      created_at: timestamp,
    },
    [],
    'One attempt of a delivery, as the delivery log keeps it.',
  ),
};

// ---------------------------------------------------------------- fields





const errorResponse = (description: string): Response => ({ description, content: json(ref('Error')) });

/** Builds the document; `version` is the running software's. */

export function openApiDocument(version: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Hangar',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description: [
        'Self-hosted app distribution speaking the Zealot 1.3 HTTP API.',
        '',
        'Tokens: `Authorization: Bearer <token>`, the `token` query parameter, or a `token` form field.',
        'The console signs in (`POST /api/sessions`) and is then known by its `hangar_session` cookie wherever a token is accepted, with the same permissions; a cookie-authenticated write must carry `X-CSRF-Token`. A token, when sent, wins over the cookie.',
        'Write requests accept multipart/form-data, application/x-www-form-urlencoded and JSON with the same field names.',
        'Errors: `{"error": "...", "entry": {"field": ["problem"]}}`. Any other path under `/api/` answers 404 `{"error":"API not found"}`.',
        'Every response carries `X-Request-Id` (the caller\'s, when sane).',
      ].join('\n'),
    },
    tags: [
      { name: 'System' },
      { name: 'Users' },
      { name: 'Tokens' },
      { name: 'Audit', description: 'Who wrote what, allowed or refused: read only, kept AUDIT_RETENTION_DAYS.' },
      { name: 'Sessions', description: 'Console sign-in: a session cookie in place of a token.' },
      { name: 'Apps' },
      { name: 'Schemes' },
      { name: 'Channels' },
      { name: 'Collaborators' },
      { name: 'Releases' },
      { name: 'Debug files' },
      { name: 'Symbol servers', description: 'Debug files by the ids debuggers ask for, in the layouts they read (debuginfod, Microsoft symbol server, Breakpad, Apple dSYMs by UUID).' },
      { name: 'Webhooks', description: 'Signed (HMAC-SHA256) POSTs to other systems when builds land.' },
      { name: 'Testers', description: "Tester groups of an app (its admins), and the testers' own side: join links, e-mailed single-use sign-in links, the tester view. Testers have no account." },
      { name: 'Install', description: 'What testers open: pages, icon, QR code, manifest and downloads.' },
    ],
    security: [{ bearer: [] }, { token: [] }, { session: [] }],
    paths: pathItemsOf(DECLARED_OPERATIONS),
    components: {
      schemas,
      responses: {
        BadRequest: errorResponse('Malformed request (body not parseable)'),
        Unauthorized: errorResponse('No token, or a token that is not valid'),
        Forbidden: errorResponse('Not allowed'),
        NotFound: errorResponse('Not found'),
        Conflict: errorResponse('Conflicts with existing data (tus: Upload-Offset is not the upload\'s offset)'),
        Gone: errorResponse('The resumable upload expired'),
        PreconditionFailed: errorResponse('tus: send Tus-Resumable: 1.0.0'),
        UnsupportedMediaType: errorResponse('tus: send the bytes as application/offset+octet-stream'),
        Locked: errorResponse('tus: another request is writing into this upload; try again shortly'),
        ChecksumMismatch: errorResponse('tus: Upload-Checksum does not match the body; nothing of it was kept'),
        PayloadTooLarge: errorResponse('Body or file too large'),
        Unprocessable: errorResponse('Invalid parameters; `entry` names the fields'),
        Unavailable: {
          ...errorResponse('A service or a dependency (database, storage, events) is unavailable; try again after Retry-After seconds'),
          headers: { 'Retry-After': { required: true, description: 'Seconds to wait', schema: { type: 'string', pattern: '^[0-9]+$' } } },
        },
        StorageFull: {
          ...errorResponse('Object storage has no room left; nothing of this request was kept. Try again after Retry-After seconds'),
          headers: { 'Retry-After': { required: true, description: 'Seconds to wait', schema: { type: 'string', pattern: '^[0-9]+$' } } },
        },
        TooManyAttempts: {
          ...errorResponse('Too many requests with an unknown token from this address (counted by all gateway replicas together); try again after Retry-After seconds'),
          headers: { 'Retry-After': { required: true, description: 'Seconds to wait', schema: { type: 'string', pattern: '^[0-9]+$' } } },
        },
        TooManyRequests: { ...errorResponse('Too many sign-in attempts for this email or address; try again after Retry-After seconds'), headers: { 'Retry-After': { required: true, schema: { type: 'string', pattern: '^[0-9]+$' } } } },
      },
      parameters: {
        page: query('page', 'Page, >= 1 (default 1)', false, { type: 'string', pattern: '^[0-9]+$' }) as Parameter,
        per_page: query('per_page', 'Items per page, 1..100 (default 25)', false, { type: 'string', pattern: '^[0-9]+$' }) as Parameter,
        channel_key: query('channel_key', "The channel's key (its slug)", true),
      },
      headers: {
        'X-Total-Count': { description: 'Items in the whole list', required: true, schema: { type: 'integer', minimum: 0 } },
        Link: { description: 'RFC 8288 first, prev, next, last', required: true, schema: { type: 'string', pattern: 'rel="first"' } },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token' },
        token: { type: 'apiKey', in: 'query', name: 'token', description: 'The same token in the query string (Zealot clients)' },
        session: { type: 'apiKey', in: 'cookie', name: 'hangar_session', description: 'The console\'s session (POST /api/sessions); writes also need X-CSRF-Token' },
        tester: { type: 'apiKey', in: 'cookie', name: 'hangar_tester', description: "A tester's session, set by the sign-in link of an invitation (GET /tester/sign-in)" },
      },
    },
  };
}
