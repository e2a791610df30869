import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { detectCi } from '../ci-environment';
import { CliError, EXIT, action, apiClientFor, interactiveStderr, printJson, stderrLine } from '../command-context';
import { contentSample } from '../file-digest';
import { FileDigest } from '../file-pump';
import { CHANGELOG_MAX_BYTES, changelogSince, fitChangelog } from '../git-history';
import { buildProvenance } from '../build-provenance';
import { formatBytes, ProgressReporter } from '../progress';
import { ResumeStore } from '../resume-store';
import { sendDirect } from '../direct-upload';
import { sendResumable, type SentUpload } from '../resumable-upload';
import { userDirs } from '../user-dirs';
import { ApiError, type ApiClient } from '../api-client';
import type { Release, VersionList } from '../api-types';

export interface TransferFlags {
  via: 'auto' | 'tus' | 's3';
  parallel?: string;
  chunkSize: string;
  json?: boolean;
}

interface UploadFlags extends TransferFlags {
  channelKey?: string;
  changelog?: string;
  changelogFromGit?: boolean;
  branch?: string;
  gitCommit?: string;
  ciUrl?: string;
  releaseType?: string;
  source: string;
  name?: string;
  password?: string;
  customFields?: string;
  releaseVersion?: string;
  buildVersion?: string;
}

/** Retries between parts of a tus transfer: quick at first, then up to half a minute apart. */
export const TUS_RETRY_DELAYS_MS = [0, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000];

/**
 * Parts at once, by route. Straight to S3 the parts are one multipart upload: parallel costs
 * nothing. Through the gateway each parallel part is a tus upload of its own, which the server
 * joins by copying them inside S3 and reads back for the SHA-256 — on a link one connection
 * fills, one stream is faster (1 GiB here: 7.6 s against 11.0 s with four; docs/performance.md).
 * `--parallel` is for links it does not fill (a long round trip, a per-connection cap).
 */
const PARALLEL_DEFAULT = { s3: 4, tus: 1 } as const;

export function transferOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--via <route>', 'auto: straight to S3 when the server hands out part URLs (S3_PUBLIC_ENDPOINT), else through the gateway (tus)')
        .choices(['auto', 'tus', 's3'])
        .default('auto'),
    )
    .addOption(new Option('--parallel <n>', `parts sent at once (default: ${PARALLEL_DEFAULT.s3} straight to S3, ${PARALLEL_DEFAULT.tus} through the gateway)`))
    .addOption(new Option('--chunk-size <MiB>', 'largest request body, in MiB; a cut connection costs at most this much').default('32'))
    .option('--json', 'print the server\'s JSON answer on stdout (progress stays on stderr)');
}

function positiveInteger(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a whole number above 0, not ${JSON.stringify(value)}`, EXIT.usage);
  return n;
}

export function readableFile(file: string): { path: string; size: number } {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new CliError(`${file}: no such file`, EXIT.usage);
  }
  if (!stat.isFile()) throw new CliError(`${file}: not a file`, EXIT.usage);
  if (stat.size === 0) throw new CliError(`${file}: the file is empty`, EXIT.usage);
  return { path: path.resolve(file), size: stat.size };
}

/**
 * Sends a file over tus with progress on stderr and resolves with the
 * finishing call's answer; the resume state is dropped only once the server
 * has answered the finishing call, so a kill at any point loses nothing.
 * The file's SHA-256 is computed while its bytes go out; resume state is kept
 * by a sample of the content, so when bytes an earlier run sent turn out to be
 * of another file (the server's SHA-256 disagrees), the file is sent again.
 */
export async function sendAndFinish<T>(
  command: Command,
  file: string,
  flags: TransferFlags,
  metadata: Record<string, string>,
  finish: (api: ApiClient, uploadId: string, sha256: string) => Promise<T>,
): Promise<T> {
  const api = apiClientFor(command);
  const { path: absolute, size } = readableFile(file);
  const parallel = flags.parallel === undefined ? undefined : positiveInteger(flags.parallel, '--parallel');
  const chunkSize = positiveInteger(flags.chunkSize, '--chunk-size') * 1024 * 1024;
  const interactive = interactiveStderr();
  const label = path.basename(absolute);
  const store = new ResumeStore(path.join(userDirs().cache, 'uploads'));
  // Hashed from the bytes read to send them (one read of the file, not two); what a route does not
  // read in order — parallel parts, bytes an earlier run sent — the digest reads itself.
  const sha256 = new FileDigest(absolute, size);
  const sample = contentSample(absolute, size);

  for (let attempt = 1; ; attempt++) {
    const uploaded = await send({ api, file: absolute, size, label, sample, digest: sha256, store, flags, parallel, chunkSize, interactive, metadata });
    const digest = await sha256.complete();
    try {
      const answer = await finish(api, uploaded.uploadId, digest);
      store.forget(uploaded.fingerprint);
      return answer;
    } catch (err) {
      const refused = err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
      // A refusal will not change on a rerun of the same bytes; a lost answer may, so that state stays.
      if (refused) store.forget(uploaded.fingerprint);
      if (refused && uploaded.resumed && attempt === 1 && err.entry?.sha256 !== undefined) {
        stderrLine(`hangar: the bytes an earlier run sent were of another file (the server's SHA-256 of them differs); sending ${label} again`);
        continue;
      }
      throw err;
    }
  }
}

interface Transfer {
  api: ApiClient;
  file: string;
  size: number;
  label: string;
  sample: string;
  digest: FileDigest;
  store: ResumeStore;
  flags: TransferFlags;
  parallel: number | undefined;
  chunkSize: number;
  interactive: boolean;
  metadata: Record<string, string>;
}

/** One transfer of every byte, straight to S3 when the server offers it, else over tus. */
async function send(t: Transfer): Promise<SentUpload> {
  const { api, interactive, label, size } = t;
  if (!interactive) stderrLine(`hangar: uploading ${label} (${formatBytes(size)}) to ${api.baseUrl}`);
  const progress = new ProgressReporter({ out: process.stderr, label, total: size, interactive });
  progress.update(0);
  let sent: SentUpload | 'unavailable' = 'unavailable';
  try {
    const common = {
      file: t.file,
      size,
      contentSample: t.sample,
      digest: t.digest,
      store: t.store,
      retryDelaysMs: TUS_RETRY_DELAYS_MS,
      onResume: (detail: string) => {
        progress.rebase();
        stderrLine(`${interactive ? '\r\x1b[2K' : ''}hangar: ${detail}`);
      },
      onRetry: (reason: string) => {
        if (!interactive) stderrLine(`hangar: ${reason}; retrying`);
      },
    };
    if (t.flags.via !== 'tus') {
      sent = await sendDirect({ ...common, parallel: t.parallel ?? PARALLEL_DEFAULT.s3, api, metadata: { filename: label, purpose: 'package', ...t.metadata }, onProgress: (bytes) => progress.update(bytes) });
      if (sent === 'unavailable' && t.flags.via === 's3') throw new CliError(`${api.baseUrl} hands out no S3 part URLs (it has no S3_PUBLIC_ENDPOINT): use --via tus`, EXIT.failed);
    }
    if (sent === 'unavailable') {
      sent = await sendResumable({
        ...common,
        parallel: t.parallel ?? PARALLEL_DEFAULT.tus,
        baseUrl: api.baseUrl,
        headers: api.headers(),
        metadata: { filename: label, ...t.metadata },
        chunkSize: t.chunkSize,
        onProgress: (bytes) => progress.update(bytes),
      });
    }
  } catch (err) {
    progress.abandon();
    throw err;
  }
  progress.finish();
  return sent;
}

async function lastBuildCommit(api: ApiClient, channelKey: string | undefined): Promise<string | undefined> {
  if (!channelKey) return undefined;
  const list = await api.get<VersionList>('/api/apps/versions', { channel_key: channelKey, page: 1, per_page: 1 });
  return list.releases?.[0]?.git_commit || undefined;
}

export function uploadCommand(): Command {
  const command = new Command('upload')
    .summary('upload a build (ipa, apk, aab, dmg, exe, msi, deb, rpm, AppImage…)')
    .description(
      'Uploads a build over resumable uploads (tus), or in parallel parts straight to S3 when the server hands out part URLs: retried with backoff, and resumed by a later run after the process is killed. Branch, commit and CI URL are read from GitHub Actions, GitLab CI, Jenkins, CircleCI, Bitrise and Azure Pipelines variables, else from the git checkout of the current directory when the file lies inside it (or with --changelog-from-git); flags override them.',
    )
    .argument('<file>', 'the package to upload')
    .option('-c, --channel-key <key>', 'the channel to upload to; without it the app, scheme and channel are found or created')
    .option('--changelog <text>', 'the changelog: plain text, one entry a line')
    .option('--changelog-from-git', "the changelog from `git log` since the channel's last build's commit")
    .option('--branch <name>', "branch (default: the CI job's, else the current checkout's when the file lies inside it)")
    .option('--git-commit <sha>', "commit (default: the CI job's, else the current checkout's when the file lies inside it)")
    .option('--ci-url <url>', 'the CI job URL (default: detected)')
    .option('--release-type <type>', 'release type, e.g. debug, adhoc')
    .option('--name <name>', "overrides the app name read from the package")
    .option('--password <password>', "sets the channel's visit password")
    .option('--custom-fields <json>', 'a JSON array of {name, value, icon}')
    .option('--release-version <version>', 'for a file Hangar cannot read: its version')
    .option('--build-version <build>', 'for a file Hangar cannot read: its build')
    .addOption(new Option('--source <source>', 'where the upload comes from').default('hangar-cli'));
  transferOptions(command).addHelpText(
    'after',
    `
Examples:
  $ hangar upload app-release.apk --channel-key 8f2ab31c --changelog-from-git
  $ hangar upload build/MyApp.ipa --json | jq -r .install_url`,
  );
  return command.action(
    action(async (file: string, flags: UploadFlags, cmd: Command) => {
      if (flags.changelog !== undefined && flags.changelogFromGit) throw new CliError('give --changelog or --changelog-from-git, not both', EXIT.usage);
      if (flags.customFields !== undefined) {
        try {
          JSON.parse(flags.customFields);
        } catch {
          throw new CliError('--custom-fields must be a JSON array', EXIT.usage);
        }
      }
      readableFile(file);
      const api = apiClientFor(cmd);
      const provenance = buildProvenance({
        flags: { branch: flags.branch, gitCommit: flags.gitCommit, ciUrl: flags.ciUrl },
        ci: detectCi(process.env),
        file,
        cwd: process.cwd(),
        fromGit: flags.changelogFromGit === true,
      });
      if (provenance.checkoutSkipped) {
        stderrLine(`hangar: ${path.basename(file)} lies outside the git checkout at ${provenance.checkoutSkipped}: no branch or commit stamped (give --branch and --git-commit for them)`);
      }
      let changelog = flags.changelog;
      if (flags.changelogFromGit) {
        const since = await lastBuildCommit(api, flags.channelKey);
        const { entries, range } = changelogSince(since, process.cwd());
        const fitted = fitChangelog(entries);
        const left = fitted.dropped ? `; the ${fitted.dropped} oldest left out, past the server's ${CHANGELOG_MAX_BYTES}-byte limit` : '';
        stderrLine(`hangar: changelog from git log ${range} (${entries.length} commit${entries.length === 1 ? '' : 's'}${left})`);
        changelog = fitted.json;
      }
      const fields: Record<string, string | undefined> = {
        channel_key: flags.channelKey,
        changelog,
        branch: provenance.branch,
        git_commit: provenance.gitCommit,
        ci_url: provenance.ciUrl,
        release_type: flags.releaseType,
        source: flags.source,
        name: flags.name,
        password: flags.password,
        custom_fields: flags.customFields,
        release_version: flags.releaseVersion,
        build_version: flags.buildVersion,
      };
      const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
      const release = await sendAndFinish(cmd, file, flags, { purpose: 'package', ...(flags.channelKey ? { channel_key: flags.channelKey } : {}) }, (client, uploadId, sha256) =>
        client.postJson<Release>('/api/apps/upload', { ...body, upload_id: uploadId, sha256 }),
      );
      if (flags.json) printJson(release);
      else {
        const channel = release.channel?.name ? ` to channel ${release.channel.name}` : '';
        process.stdout.write(
          `Uploaded ${release.app_name ?? ''} ${release.release_version ?? ''} (${release.build_version ?? ''})${channel}\n` +
            `  release: ${release.release_url ?? release.id}\n  install: ${release.install_url ?? ''}\n${release.sha256 ? `  sha256:  ${release.sha256}\n` : ''}`,
        );
      }
    }),
  );
}
