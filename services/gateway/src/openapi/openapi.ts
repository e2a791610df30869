import { ROUTE_SCOPES, TOKEN_SCOPES } from '../auth/route-scopes';
import { DECLARED_OPERATIONS } from '../operations/catalogue';
import { pathItemsOf } from '../operations/openapi-paths';
import type { JsonSchema, OpenApiDocument, Operation, Header, Parameter, PathItem, RequestBody, Response } from './schema-types';
import {
  DELETED,
  ERROR_RESPONSES,
  USER_ROLES,
  WEBHOOK_FORMATS,
  JSON_TYPE,
  NO_TOKEN,
  OPTIONAL_TOKEN,
  PAGE_HEADERS,
  READ_WITH_KEY,
  READ_WITH_TOKEN,
  SESSION_ONLY,
  UPLOAD_WITH_TOKEN,
  WRITE_WITH_TOKEN,
  arrayOf,
  bool,
  errors,
  formBody,
  int,
  json,
  nullableStr,
  object,
  ok,
  operationObject,
  param,
  pathId,
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
/** The visit-password form both unlock routes take (by release id, and by channel key), and the pages they answer a refusal with. */
const UNLOCK_FORM: RequestBody = { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { password: str(), next: str('A local path') } } } } };
const UNLOCK_PAGES: Operation['responses'] = {
  '401': { description: 'Wrong password: the form again', content: { 'text/html': {} } },
  '404': { description: 'Not found page', content: { 'text/html': {} } },
};

/** Uploads stream their file: multipart only, text fields before the file part are read first. */
function uploadBody(properties: Record<string, JsonSchema>, required: string[], description: string): RequestBody {
  const finishing = {
    upload_id: str('Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made.'),
    sha256: str('With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422).'),
  };
  const finishSchema: JsonSchema = { type: 'object', properties: { token: str('The access token, when not in the header or query.'), ...properties, ...finishing }, required: [...required, 'upload_id'] };
  return {
    required: true,
    description: `${description} Or finish a resumable upload: \`upload_id\` in place of \`file\`, in any of the three encodings.`,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { token: str('The access token, when not in the header or query (send it before the file).'), ...properties, ...finishing, file: { type: 'string', contentMediaType: 'application/octet-stream' } },
          required,
        },
      },
      'application/json': { schema: finishSchema },
      'application/x-www-form-urlencoded': { schema: finishSchema },
    },
  };
}


/** tus request headers; `Tus-Resumable` is on every request but OPTIONS. */
function TUS_REQUEST_HEADERS(names: string[]): Parameter[] {
  const described: Record<string, string> = {
    'Upload-Length': 'Size of the whole file in bytes (not on a final concatenation)',
    'Upload-Metadata': 'Comma-separated `key base64(value)` pairs: filename, purpose, channel_key',
    'Upload-Concat': '`partial`, or `final;<url> <url>…`',
    'Upload-Checksum': '`sha256 <base64 digest>` of this request\'s body',
    'Upload-Offset': 'Where this body starts: the offset HEAD answered',
  };
  return [
    { name: 'Tus-Resumable', in: 'header', required: true, description: 'Always `1.0.0`', schema: { type: 'string', enum: ['1.0.0'] } },
    ...names.map((name): Parameter => ({ name, in: 'header', required: name === 'Upload-Offset', description: described[name]!, schema: { type: 'string' } })),
  ];
}
const TUS_RESUMABLE_HEADER: Header = { schema: { type: 'string', enum: ['1.0.0'] } };
const UPLOAD_ID: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };


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
        'Each dependency as the services reach it (MongoDB-wire, S3, NATS): `unavailable` when one service that uses it cannot reach it. Checked by each service once a second.',
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


// ---------------------------------------------------------------- operations

/**
 * Every operation that reads a token (it can answer 401) can also answer 403
 * (a scoped token without one of its scopes) and 429 (an address that sent
 * too many unknown tokens waits, TOKEN_MAX_FAILURES).
 */
function op(operationId: string, tag: string, summary: string, responses: Operation['responses'], rest: Partial<Operation> = {}): Operation {
  const scopes = ROUTE_SCOPES[operationId];
  if (scopes === undefined) throw new Error(`${operationId} has no row in auth/route-scopes.ts: say which token scope it needs`);
  return operationObject(operationId, tag, summary, responses, rest, scopes);
}

const versionOp = (operationId: string): Operation =>
  op(operationId, 'System', 'Running version', { '200': ok('Version', ref('VersionInfo')) }, { security: NO_TOKEN });

/** The answer to a conditional GET whose If-None-Match still names the content. */
const NOT_MODIFIED = { description: 'Not modified: the ETag sent in If-None-Match still names this content' };

const downloadResponses = (what: string, contentType: string): Operation['responses'] => ({
  '200': { description: `${what}, streamed by the gateway (DOWNLOAD_REDIRECT=false)`, content: { [contentType]: {} } },
  '302': { description: `Redirect to a short-lived storage URL of ${what}`, headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } } },
});

const symbolResponses: Operation['responses'] = {
  ...downloadResponses('the file', 'application/octet-stream'),
  '206': { description: 'A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false)', content: { 'application/octet-stream': {} } },
};
const buildIdParam: Parameter = { name: 'build_id', in: 'path', required: true, description: 'GNU build-id, hex', schema: { type: 'string' } };
const debuginfodKindParam: Parameter = { name: 'kind', in: 'path', required: true, description: 'debuginfo or executable', schema: { type: 'string', enum: ['debuginfo', 'executable'] } };

const breakpadParams: Parameter[] = [
  { name: 'module', in: 'path', required: true, description: 'The module\'s debug file name (`app`, `app.pdb`)', schema: { type: 'string' } },
  { name: 'module_id', in: 'path', required: true, description: 'The module id: GUID and age, 33 to 40 hex digits', schema: { type: 'string' } },
  { name: 'sym', in: 'path', required: true, description: 'The module name without .pdb/.exe/.dll, then `.sym`', schema: { type: 'string' } },
];

const unifiedParams: Parameter[] = [
  { name: 'prefix', in: 'path', required: true, description: 'The first 2 hex digits of the UUID', schema: { type: 'string' } },
  { name: 'rest', in: 'path', required: true, description: 'The other 30 hex digits', schema: { type: 'string' } },
  { name: 'kind', in: 'path', required: true, description: 'debuginfo', schema: { type: 'string', enum: ['debuginfo'] } },
];
const dsymFileParam: Parameter = { name: 'file', in: 'path', required: true, description: '`<UUID>.zip`', schema: { type: 'string' } };

const microsoftParams: Parameter[] = [
  { name: 'file', in: 'path', required: true, description: 'The file name as uploaded (`app.pdb`, `app.exe`)', schema: { type: 'string' } },
  { name: 'id', in: 'path', required: true, description: 'A PDB\'s GUID (32 hex digits) then its age in hex, or a PE\'s TimeDateStamp (8 hex digits) then its SizeOfImage in hex', schema: { type: 'string' } },
  { name: 'again', in: 'path', required: true, description: 'The file name again', schema: { type: 'string' } },
];

const undeclaredPaths: Record<string, PathItem> = {
  '/version': { get: versionOp('getVersion') },
  '/api/version': { get: versionOp('getApiVersion') },
  '/api/health': {
    get: op(
      'getHealth',
      'System',
      'Health of every service',
      {
        '200': ok('Every service and dependency is healthy', ref('Health')),
        '503': ok('A service does not answer or a dependency is unavailable', ref('Health'), { 'Retry-After': { required: true, description: 'Seconds to wait', schema: { type: 'string', pattern: '^[0-9]+$' } } }),
      },
      { security: NO_TOKEN },
    ),
  },
  '/api/openapi.json': {
    get: op('getOpenApi', 'System', 'This document', { '200': ok('OpenAPI 3.1 document', { type: 'object' }) }, { security: NO_TOKEN }),
  },

  // Console sessions
  '/api/sessions/options': {
    get: op('getSignInOptions', 'Sessions', 'How the console may sign in: passwords, and the identity provider when one is configured', { '200': ok('The options', ref('SignInOptions')) }, { security: NO_TOKEN }),
  },
  '/api/sessions/oidc/start': {
    get: op(
      'startSingleSignOn',
      'Sessions',
      'Single sign-on (OpenID Connect): redirects the browser to the identity provider, with PKCE, state and nonce',
      {
        '302': {
          description: "To the provider's authorization endpoint; sets the short-lived HttpOnly `hangar_sso` cookie the callback needs",
          headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } },
        },
        ...errors(404, 422, 503),
      },
      {
        security: NO_TOKEN,
        parameters: [
          query('cli_port', '`hangar login --web`: the loopback port the CLI waits on (with cli_challenge); the callback then sends the browser there with a one-time code instead of starting a session'),
          query('cli_challenge', "`hangar login --web`: base64url SHA-256 of the CLI's verifier (43 characters)"),
        ],
      },
    ),
  },
  '/api/sessions/oidc/cli-token': {
    post: op(
      'redeemCliSignIn',
      'Sessions',
      '`hangar login --web`: the one-time code the CLI received on its loopback port, and its verifier, for a new personal access token of the signed-in user',
      { '201': ok('The token, shown this once', ref('CreatedToken')), ...errors(400, 404, 422, 503) },
      {
        security: NO_TOKEN,
        requestBody: formBody({ code: str('From the redirect to http://127.0.0.1:<cli_port>/callback'), verifier: str('The secret whose SHA-256 was cli_challenge'), name: str('The token\'s name (default: hangar login --web)') }, ['code', 'verifier']),
      },
    ),
  },
  '/api/sessions/oidc/callback': {
    get: op(
      'finishSingleSignOn',
      'Sessions',
      "Where the identity provider sends the browser back: the answer verified (ID token signature, issuer, audience, nonce, expiry), the user found by the provider's issuer and subject, else matched by verified email (and bound to that subject; an email bound to another subject of the provider is a 403) or created with the default role, and a session cookie set as by `POST /api/sessions`",
      {
        '303': {
          description: 'Signed in: the `hangar_session` cookie is set; on to the console. Started by `hangar login --web`: no cookie, on to `http://127.0.0.1:<cli_port>/callback?code=…` instead',
          headers: { Location: { required: true, schema: { type: 'string' } }, 'Set-Cookie': { schema: { type: 'string' } } },
        },
        '400': { description: 'No valid state, or one unknown, expired, already used, or started in another browser', content: { ...json(ref('Error')), 'text/html': {} } },
        '401': { description: 'The provider refused, or its answer failed verification (forged or expired ID token, another audience, a replayed nonce)', content: { ...json(ref('Error')), 'text/html': {} } },
        '403': { description: 'An email the provider has not verified, or of a domain not allowed, or whose Hangar account is bound to another person (subject) at the provider', content: { ...json(ref('Error')), 'text/html': {} } },
        ...errors(404, 503),
      },
      {
        security: NO_TOKEN,
        description: 'A browser (Accept: text/html) is answered a page that says why a sign-in was refused; other clients the JSON error. Recorded in the audit log, refused or not.',
        parameters: [query('code', "The provider's authorization code"), query('state', 'The state of the sign-in started at /api/sessions/oidc/start'), query('iss', "The provider's issuer (RFC 9207)"), query('error', "The provider's refusal"), query('error_description', 'Its reason')],
      },
    ),
  },
  // Apps
  '/api/apps/upload': {
    post: op(
      'uploadRelease',
      'Releases',
      'Upload a build',
      { '201': ok('The release, with its app, scheme and channel', { type: 'object', allOf: [ref('Release')], required: ['app', 'scheme', 'channel'] }), ...errors(...UPLOAD_WITH_TOKEN) },
      {
        description:
          'Streams the package to storage; the type is detected from the content. Without `channel_key`, the app (by name), an `Adhoc` scheme and a channel named after the platform are found or created.',
        requestBody: uploadBody(
          {
            channel_key: str('Empty or absent: app, scheme and channel are created.'),
            name: str('Overrides the parsed app name.'),
            password: str("Sets the channel's visit password; empty clears it."),
            release_type: str(),
            source: str('Default `api`.'),
            changelog: str('A JSON array of ChangelogEntry, or plain text (one entry per line): any text that is not a JSON array of objects (`2024`, `true`, an object) is plain text. At most 6 KiB.'),
            branch: str('A leading `origin/` is removed.'),
            git_commit: str(),
            ci_url: str(),
            custom_fields: str('A JSON array of CustomField; entries that are not objects (the fastlane plugin sends `["[]"]` by default) are dropped. At most 4 KiB.'),
            release_version: str('Required for a file of an unknown type.'),
            build_version: str('Required for a file of an unknown type.'),
            notify: str("`false` (or 0, no): no tester of the channel's groups is e-mailed of this build; default `true`."),
          },
          [],
          'multipart/form-data; `token` and `channel_key` before the file let the gateway refuse before storing anything. A `token` after the file is taken too (as `curl -F file=@app.apk -F token=…` sends it): the file is then held only up to UPLOAD_MAX_BYTES_BEFORE_TOKEN (413 past it) and removed unless the token is good (401). One `file` part only (a second is a 422). Each text field has a byte limit (name, branch, password, versions 255; release_type, source 64; git_commit 128; ci_url 2,048; 422 past it, before the file is stored when the field comes first).',
        ),
      },
    ),
  },
  '/api/teardown': {
    post: op(
      'createTeardown',
      'Releases',
      'Read a package without publishing it',
      { '201': ok('What its release would show, kept for the uploader until `expires_at`', ref('Teardown')), ...errors(400, 401, 413, 422, 503, 507) },
      {
        description:
          'Any signed-in user. Streams the package to storage like an upload; a file whose first bytes match no package format is refused (422) before it is stored, one over the upload limit with 413.',
        requestBody: uploadBody({}, [], 'multipart/form-data; `token` before the file lets the gateway refuse before storing anything.'),
      },
    ),
  },
  '/api/teardown/{id}': {
    parameters: [pathId('id', 'Teardown id', { type: 'string' })],
    get: op('getTeardown', 'Releases', 'A teardown, for its uploader', { '200': ok('The teardown', ref('Teardown')), ...errors(401, 404, 503) }, {
      description: 'Only the uploader: anyone else, and everyone once it has expired, gets 404.',
    }),
  },
  '/api/apps/versions': {
    get: op('listVersions', 'Releases', "A channel's releases, newest upload first", { '200': ok('The channel and a page of its releases', ref('VersionList'), PAGE_HEADERS), ...errors(...READ_WITH_KEY) }, {
      security: OPTIONAL_TOKEN,
      description: 'The optional filters (an addition to Zealot) narrow the list and its `X-Total-Count`; empty ones match everything, and a value over 200 characters is 422.',
      parameters: [
        param('channel_key'),
        query('release_version', 'Only this release version or its dotted extensions (`1.2` matches `1.2` and `1.2.3`, not `1.20`)'),
        query('branch', 'Only builds of this git branch'),
        query('git_commit', 'Only builds whose commit starts with this (any case)'),
        param('page'),
        param('per_page'),
      ],
    }),
  },
  '/api/apps/latest': {
    get: op('latestReleases', 'Releases', 'Releases newer than the given version', { '200': ok('The channel and the newer releases, newest version first', ref('VersionList'), PAGE_HEADERS), ...errors(...READ_WITH_KEY) }, {
      security: OPTIONAL_TOKEN,
      parameters: [
        param('channel_key'),
        query('release_version', 'The version the client has'),
        query('build_version', 'The build the client has'),
        query('bundle_id', 'Only this package id'),
        param('page'),
        param('per_page'),
      ],
    }),
  },
  '/api/apps/update_check': {
    get: op(
      'updateCheck',
      'Releases',
      'In-app update check: is there a newer build, and must it be installed?',
      {
        '200': ok('The answer; `ETag` and `Cache-Control: no-cache` (revalidate each time: a 304 costs no database read)', ref('UpdateCheck'), {
          ETag: { schema: { type: 'string' } },
          'Cache-Control': { schema: { type: 'string' } },
        }),
        '304': NOT_MODIFIED,
        ...errors(...READ_WITH_KEY),
      },
      {
        security: OPTIONAL_TOKEN,
        description: 'Newer means what `latest` means: a higher release version, or the same release version and a higher build version.',
        parameters: [
          param('channel_key'),
          query('bundle_id', 'Package id of the installed app', true),
          query('release_version', 'Installed release version', true),
          query('build_version', 'Installed build version', true),
          query('release_hash', 'SHA-256 (64 hex digits) of the installed package; anything else is 422', false, { type: 'string' }),
        ],
      },
    ),
  },
  '/api/apps/version_exist': {
    get: op('versionExists', 'Releases', 'Whether a build exists', { '200': ok('The release', ref('Release')), ...errors(...READ_WITH_KEY) }, {
      security: OPTIONAL_TOKEN,
      description: 'Valid combinations: bundle_id with release_version and build_version, or bundle_id with git_commit; others are 422.',
      parameters: [
        param('channel_key'),
        query('bundle_id', 'Package id', true),
        query('release_version', 'Release version'),
        query('build_version', 'Build version'),
        query('git_commit', 'Commit'),
      ],
    }),
  },

  // Releases
  '/api/releases/{id}/icon': {
    parameters: [pathId('id', 'Release id')],
    get: op(
      'getReleaseIcon',
      'Install',
      "The release's icon (a default one when the package has none)",
      {
        '200': { description: 'The icon (PNG), or the default icon (SVG). A stored icon never changes at this URL: ETag and `Cache-Control: immutable`', content: { 'image/png': {}, 'image/svg+xml': {} } },
        '304': NOT_MODIFIED,
        ...errors(404, 422, 503),
      },
      { security: NO_TOKEN },
    ),
  },
  '/api/releases/{id}/download': {
    parameters: [pathId('id', 'Release id')],
    get: op('downloadRelease', 'Install', 'The package', { ...downloadResponses('the package (media type of its format, e.g. application/vnd.android.package-archive, else application/octet-stream)', '*/*'), ...errors(401, 404, 422, 503) }, {
      security: NO_TOKEN,
      description: 'A password-protected channel needs its unlock cookie or the signed `t` from the release page.',
      parameters: [query('t', 'Signed download token from the release page')],
    }),
  },
  '/api/releases/{id}/qrcode': {
    parameters: [pathId('id', 'Release id')],
    get: op('getReleaseQrCode', 'Install', 'QR code of the release page URL', { '200': { description: 'PNG; the same at this URL for as long as the release exists: ETag and `Cache-Control: immutable`', content: { 'image/png': {} } }, '304': NOT_MODIFIED, ...errors(404, 422, 503) }, {
      security: NO_TOKEN,
      parameters: [query('size', 'Pixels, 64..1024 (default 256)', false, { type: 'string', pattern: '^[0-9]+$' })],
    }),
  },
  '/api/releases/{id}/manifest.plist': {
    parameters: [pathId('id', 'Release id')],
    get: op('getReleaseManifest', 'Install', 'iOS install manifest (itms-services)', { '200': { description: 'The manifest plist', content: { 'application/xml': {} } }, ...errors(401, 404, 422, 503) }, {
      security: NO_TOKEN,
      parameters: [query('t', 'Signed download token from the release page')],
    }),
  },

  // Debug files
  '/api/direct_uploads': {
    post: op(
      'createDirectUpload',
      'Resumable uploads',
      'Begin an upload whose parts go straight to S3 (presigned part URLs)',
      {
        '201': ok('The upload and one presigned PUT URL per part', {
          type: 'object',
          required: ['upload_id', 'part_size', 'expires_at', 'parts'],
          properties: {
            upload_id: { type: 'string' },
            part_size: { type: 'integer', minimum: 1 },
            expires_at: { type: 'string', format: 'date-time' },
            parts: {
              type: 'array',
              items: {
                type: 'object',
                required: ['part_number', 'offset', 'length', 'url'],
                properties: { part_number: { type: 'integer', minimum: 1 }, offset: { type: 'integer', minimum: 0 }, length: { type: 'integer', minimum: 1 }, url: { type: 'string', format: 'uri' } },
              },
            },
          },
        }),
        ...errors(401, 403, 404, 413, 422, 503),
      },
      {
        description:
          'Only when the server has `S3_PUBLIC_ENDPOINT` (else 404): the client PUTs bytes `offset`…`offset+length` of the file to each part\'s URL, in any order and in ' +
          'parallel, then finishes with `POST /api/apps/upload` (or `/api/debug_files/upload`) and `upload_id`, which checks every part, joins them and hashes the file.',
        requestBody: {
          required: true,
          content: Object.fromEntries(
            ['application/json', 'application/x-www-form-urlencoded'].map((type) => [
              type,
              {
                schema: {
                  type: 'object',
                  required: ['length'],
                  properties: { filename: str(), length: str('File size in bytes'), purpose: str('`package` (default) or `debug_file`'), channel_key: str('Required for debug files; else the right to create apps is needed') },
                },
              },
            ]),
          ),
        },
      },
    ),
  },
  '/api/uploads': {
    post: op(
      'createUpload',
      'Resumable uploads',
      'Begin a resumable upload (tus 1.0 creation)',
      {
        '201': {
          description: 'Created; `Location` is the upload\'s URL. With a body (creation-with-upload), `Upload-Offset` says how much of it was kept.',
          headers: {
            Location: { required: true, schema: { type: 'string', format: 'uri' } },
            'Upload-Offset': { schema: { type: 'integer', minimum: 0 } },
            'Upload-Expires': { schema: { type: 'string' } },
            'Tus-Resumable': TUS_RESUMABLE_HEADER,
          },
        },
        ...errors(400, 401, 403, 404, 409, 412, 413, 422, 460, 503, 507),
      },
      {
        description:
          'The tus 1.0 protocol (https://tus.io/protocols/resumable-upload) with the creation, creation-with-upload, checksum (sha256), termination, expiration and ' +
          'concatenation extensions; `OPTIONS /api/uploads` names them. The token, and the channel (`channel_key` in `Upload-Metadata`) or the right to create apps, are ' +
          'checked here, before any byte is taken. `Upload-Metadata` keys: `filename`, `purpose` (`package`, default, or `debug_file`), `channel_key` (required for ' +
          'debug files). `Upload-Concat: partial` makes a part of a parallel upload; `final;<url> <url>` joins the caller\'s complete parts. A complete upload becomes a ' +
          'build through `POST /api/apps/upload` or `POST /api/debug_files/upload` with `upload_id`. Unfinished uploads expire after `RESUMABLE_UPLOAD_EXPIRY_MS` (24 h).',
        parameters: TUS_REQUEST_HEADERS(['Upload-Length', 'Upload-Metadata', 'Upload-Concat', 'Upload-Checksum']),
        requestBody: { required: false, content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      },
    ),
  },
  '/api/uploads/{id}': {
    head: op(
      'getUploadOffset',
      'Resumable uploads',
      'How much of an upload the server has (tus HEAD)',
      {
        '200': {
          description: 'The offset to resume from',
          headers: {
            'Upload-Offset': { required: true, schema: { type: 'integer', minimum: 0 } },
            'Upload-Length': { required: true, schema: { type: 'integer', minimum: 0 } },
            'Upload-Metadata': { schema: { type: 'string' } },
            'Cache-Control': { schema: { type: 'string' } },
          },
        },
        ...errors(401, 404, 410, 412, 503),
      },
      { parameters: [pathId('id', 'The upload, the last segment of its URL', UPLOAD_ID), ...TUS_REQUEST_HEADERS([])] },
    ),
    patch: op(
      'appendUpload',
      'Resumable uploads',
      'Send bytes at the upload\'s offset (tus PATCH)',
      {
        '204': { description: 'Kept; `Upload-Offset` is the new offset', headers: { 'Upload-Offset': { required: true, schema: { type: 'integer', minimum: 0 } } } },
        ...errors(400, 401, 403, 404, 409, 410, 412, 413, 415, 423, 460, 503, 507),
      },
      {
        description: 'Only the upload\'s creator may write to it; for anyone else it does not exist (404). A body cut short keeps what arrived (without `Upload-Checksum`).',
        parameters: [pathId('id', 'The upload', UPLOAD_ID), ...TUS_REQUEST_HEADERS(['Upload-Offset', 'Upload-Checksum'])],
        requestBody: { required: true, content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      },
    ),
    delete: op(
      'terminateUpload',
      'Resumable uploads',
      'Abandon an upload and remove its bytes (tus termination)',
      { '204': { description: 'Terminated' }, ...errors(401, 404, 410, 412, 503) },
      { parameters: [pathId('id', 'The upload', UPLOAD_ID), ...TUS_REQUEST_HEADERS([])] },
    ),
  },
  '/api/debug_files/upload': {
    post: op(
      'uploadDebugFile',
      'Debug files',
      'Upload a dSYM zip or an Android mapping zip',
      { '200': ok('The debug file (the seed answers 200 here)', ref('DebugFile')), ...errors(...UPLOAD_WITH_TOKEN) },
      {
        requestBody: uploadBody(
          { channel_key: str(), release_version: str('Required for Android; iOS takes it from the dSYM.'), build_version: str('Required for Android; iOS takes it from the dSYM.') },
          ['channel_key'],
          'multipart/form-data; `token` and `channel_key` before the file are checked before anything is stored. A `token` after the file is taken too: the file is then held only up to UPLOAD_MAX_BYTES_BEFORE_TOKEN (413 past it) and removed unless the token is good (401).',
        ),
      },
    ),
  },
  '/api/debug_files/retrace': {
    post: op(
      'retraceStackTrace',
      'Debug files',
      'Deobfuscate an Android stack trace',
      { '200': ok('The trace as ProGuard ReTrace 6.2.2 prints it', ref('Retraced')), ...errors(400, 401, 404, 413, 422, 503) },
      {
        security: OPTIONAL_TOKEN,
        description:
          "With the ProGuard/R8 mapping of that build in the channel (its newest upload). The body is bounded by the gateway's MAX_BODY_BYTES (413 above it); no mapping for the build: 404.",
        requestBody: formBody(
          {
            channel_key: str('The credential: the channel whose mapping is used.'),
            release_version: str(),
            build_version: str(),
            stack_trace: str('The obfuscated trace, as the crash reporter sent it.'),
          },
          ['channel_key', 'release_version', 'build_version', 'stack_trace'],
        ),
      },
    ),
  },
  '/api/debug_files/download': {
    get: op('downloadDebugFile', 'Debug files', 'Download a debug file by version', { ...downloadResponses('the archive', 'application/zip'), ...errors(...READ_WITH_KEY) }, {
      security: OPTIONAL_TOKEN,
      description: '`build_version` picks that build; otherwise `order=version` the highest build of the release version, `order=upload_date` the newest upload.',
      parameters: [
        param('channel_key'),
        query('release_version', 'Release version (ignored for iOS)'),
        query('build_version', 'Build version'),
        query('order', 'When build_version is omitted', false, { type: 'string', enum: ['version', 'upload_date'] }),
      ],
    }),
  },
  '/api/debug_files/{id}/download': {
    parameters: [pathId('id', 'Debug file id')],
    get: op('downloadDebugFileById', 'Debug files', 'Download this debug file (its `file_url`)', { ...downloadResponses('the archive', 'application/zip'), ...errors(...READ_WITH_KEY) }, {
      security: OPTIONAL_TOKEN,
      parameters: [param('channel_key')],
    }),
  },
  '/api/debug_files/{id}': {
    parameters: [pathId('id', 'Debug file id')],
    put: op('replaceDebugFile', 'Debug files', 'Replace the archive of a debug file', { '200': ok('Updated', ref('DebugFile')), ...errors(...UPLOAD_WITH_TOKEN) }, {
      requestBody: uploadBody({ channel_key: str(), release_version: str(), build_version: str() }, ['channel_key'], 'multipart/form-data, as the upload.'),
    }),
  },

  // Symbol servers: the layouts debuggers and crash tools already read (docs/symbol-servers.md).
  '/debuginfod/buildid/{build_id}/{kind}': {
    parameters: [buildIdParam, debuginfodKindParam],
    get: op('debuginfodWithToken', 'Symbol servers', 'debuginfod: an ELF file by GNU build-id', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: [{ bearer: [] }, { token: [] }],
      description: 'What a debuginfod client (`DEBUGINFOD_URLS`) asks for. `debuginfo`: a file with DWARF; `executable`: a file with code. Files of every app the token may read.',
    }),
  },
  '/debuginfod/{credential}/buildid/{build_id}/{kind}': {
    parameters: [
      { name: 'credential', in: 'path', required: true, description: 'An access token or a channel key, for clients that can only be given a URL', schema: { type: 'string' } },
      buildIdParam,
      debuginfodKindParam,
    ],
    get: op('debuginfodWithCredentialInPath', 'Symbol servers', 'debuginfod, the credential in the URL', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: NO_TOKEN,
      description: 'Set `DEBUGINFOD_URLS=<origin>/debuginfod/<token or channel key>`. A channel key finds that channel\'s files only.',
    }),
  },
  '/breakpad/{module}/{module_id}/{sym}': {
    parameters: breakpadParams,
    get: op('breakpadWithToken', 'Symbol servers', 'Breakpad: a .sym file by module and module id', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: [{ bearer: [] }, { token: [] }],
      description: 'The layout minidump processors read: `<module>/<module id>/<module without .pdb/.exe/.dll>.sym`.',
    }),
  },
  '/breakpad/{credential}/{module}/{module_id}/{sym}': {
    parameters: [{ name: 'credential', in: 'path', required: true, description: 'An access token or a channel key', schema: { type: 'string' } }, ...breakpadParams],
    get: op('breakpadWithCredentialInPath', 'Symbol servers', 'Breakpad, the credential in the URL', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: NO_TOKEN,
      description: 'For symbol-server settings that take a URL only: `<origin>/breakpad/<token or channel key>`.',
    }),
  },
  '/apple/dsym/{file}': {
    parameters: [dsymFileParam],
    get: op('dsymByUuidWithToken', 'Symbol servers', 'Apple: the dSYM zip holding a Mach-O UUID', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: [{ bearer: [] }, { token: [] }],
      description: 'The whole uploaded dSYM zip, found by any of its slices\' UUIDs (any case, dashes optional).',
    }),
  },
  '/apple/{credential}/dsym/{file}': {
    parameters: [{ name: 'credential', in: 'path', required: true, description: 'An access token or a channel key', schema: { type: 'string' } }, dsymFileParam],
    get: op('dsymByUuidWithCredentialInPath', 'Symbol servers', 'Apple dSYM by UUID, the credential in the URL', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: NO_TOKEN,
    }),
  },
  '/apple/unified/{prefix}/{rest}/{kind}': {
    parameters: unifiedParams,
    get: op('machoSliceUnifiedWithToken', 'Symbol servers', "Apple: one Mach-O slice of a dSYM in Sentry's unified layout", { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: [{ bearer: [] }, { token: [] }],
      description: 'The thin Mach-O DWARF file of one UUID (lowercase hex without dashes: the first 2 digits, then the other 30), stored when its dSYM was uploaded.',
    }),
  },
  '/apple/{credential}/unified/{prefix}/{rest}/{kind}': {
    parameters: [{ name: 'credential', in: 'path', required: true, description: 'An access token or a channel key', schema: { type: 'string' } }, ...unifiedParams],
    get: op('machoSliceUnifiedWithCredentialInPath', 'Symbol servers', 'Apple Mach-O slice (unified layout), the credential in the URL', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: NO_TOKEN,
      description: "For Sentry's custom HTTP repository with layout `unified`: `<origin>/apple/<token or channel key>/unified`.",
    }),
  },
  '/symbols/{file}/{id}/{again}': {
    parameters: microsoftParams,
    get: op('microsoftSymbolsWithToken', 'Symbol servers', 'Microsoft symbol server: a PDB by GUID and age, a PE by code id', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: [{ bearer: [] }, { token: [] }],
      description: 'The layout Visual Studio, WinDbg and Sentry read (`<file>/<GUID><age>/<file>`), in any case (SSQP lowercases it).',
    }),
  },
  '/symbols/{credential}/{file}/{id}/{again}': {
    parameters: [{ name: 'credential', in: 'path', required: true, description: 'An access token or a channel key', schema: { type: 'string' } }, ...microsoftParams],
    get: op('microsoftSymbolsWithCredentialInPath', 'Symbol servers', 'Microsoft symbol server, the credential in the URL', { ...symbolResponses, ...errors(401, 403, 404, 422, 503) }, {
      security: NO_TOKEN,
      description: 'For a symbol path that takes a URL only: `srv*C:\\symbols*<origin>/symbols/<token or channel key>`.',
    }),
  },

  // Install pages: HTML for people, on the same host.
  '/releases/{id}': {
    parameters: [pathId('id', 'Release id', { type: 'string' })],
    get: op(
      'releasePage',
      'Install',
      'Release page',
      {
        '200': { description: 'The page', content: { 'text/html': {} } },
        '401': { description: 'The password form (protected channel)', content: { 'text/html': {} } },
        '404': { description: 'Not found page', content: { 'text/html': {} } },
      },
      { security: NO_TOKEN },
    ),
  },
  '/releases/{id}/unlock': {
    parameters: [pathId('id', 'Release id', { type: 'string' })],
    post: op(
      'unlockRelease',
      'Install',
      "Unlock the pages of a release's channel with its password (the release page's form: it names no channel key)",
      {
        '303': { description: 'Unlocked (or the channel has no password): a signed cookie is set; back to `next`', headers: { Location: { required: true, schema: { type: 'string' } } } },
        ...UNLOCK_PAGES,
        '429': { description: 'Too many wrong passwords', content: { 'text/html': {} }, headers: { 'Retry-After': { required: true, schema: { type: 'string' } } } },
      },
      {
        security: NO_TOKEN,
        requestBody: UNLOCK_FORM,
      },
    ),
  },
  '/channels/{slug}': {
    parameters: [{ name: 'slug', in: 'path', required: true, description: 'Channel key', schema: { type: 'string' } }],
    get: op(
      'channelPage',
      'Install',
      "A channel's releases",
      {
        '200': { description: 'The page', content: { 'text/html': {} } },
        '401': { description: 'The password form (protected channel)', content: { 'text/html': {} } },
        '404': { description: 'Not found page', content: { 'text/html': {} } },
        '429': { description: 'Too many unknown channel keys from this address', content: { 'text/html': {} }, headers: { 'Retry-After': { required: true, schema: { type: 'string' } } } },
      },
      { security: NO_TOKEN, parameters: [query('page', 'Page number')] },
    ),
  },
  '/channels/{slug}/unlock': {
    parameters: [{ name: 'slug', in: 'path', required: true, description: 'Channel key', schema: { type: 'string' } }],
    post: op(
      'unlockChannel',
      'Install',
      "Unlock a channel's pages with its password",
      {
        '303': { description: 'Unlocked: a signed cookie is set; back to `next`', headers: { Location: { required: true, schema: { type: 'string' } } } },
        ...UNLOCK_PAGES,
        '429': { description: 'Too many wrong passwords, or unknown channel keys from this address', content: { 'text/html': {} }, headers: { 'Retry-After': { required: true, schema: { type: 'string' } } } },
      },
      {
        security: NO_TOKEN,
        requestBody: UNLOCK_FORM,
      },
    ),
  },
};

/**
 * The hand-written paths and those of the declared operations (operations/catalogue.ts); a path
 * may have methods of both while its feature moves, never the same method twice.
 */
function allPaths(): Record<string, PathItem> {
  const paths: Record<string, PathItem> = { ...undeclaredPaths };
  for (const [path, declared] of Object.entries(pathItemsOf(DECLARED_OPERATIONS))) {
    const written = paths[path];
    if (!written) {
      paths[path] = declared;
      continue;
    }
    const both = Object.keys(declared).filter((key) => key !== 'parameters' && Object.hasOwn(written, key));
    if (both.length > 0) throw new Error(`${path}: ${both.join(', ')} declared and written by hand`);
    if (JSON.stringify(written.parameters ?? []) !== JSON.stringify(declared.parameters ?? [])) throw new Error(`${path}: its parameters are described twice, differently`);
    paths[path] = { ...written, ...declared };
  }
  return paths;
}

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
    paths: allPaths(),
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
