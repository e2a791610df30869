import { useEffect, useRef, useState } from 'preact/hooks';
import { Upload } from 'tus-js-client';
import { api, currentCsrfToken, must } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Link, useLocation } from '../router';
import { formatBytes } from '../ui/format';
import { Empty, ErrorNote, Show } from '../ui/states';
import { ChannelPicker, channelChoices, type ChannelChoice } from './channel-picker';

/** What the page remembers of an unfinished upload, so a reloaded page can say what to pick again. */
const PENDING_KEY = 'hangar.console.pending-upload';
interface Pending {
  fileName: string;
  size: number;
  channelKey: string;
}
const readPending = (): Pending | undefined => {
  try {
    return JSON.parse(localStorage.getItem(PENDING_KEY) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
};

/** Upload a package from the browser: drag and drop, progress, resumable across a page reload (tus). */
export function UploadPage() {
  const apps = useApi(() => must(api.GET('/api/apps', { params: { query: { per_page: '100' } } })), []);
  const url = useLocation();
  const wantedApp = Number(url.searchParams.get('app') ?? 0);
  const wantedChannel = url.searchParams.get('channel') ?? '';
  return (
    <>
      <h1>Upload a build</h1>
      <Show state={apps} what="your apps">
        {(list) => {
          // Lists carry no collaborators: the upload itself is refused (403) where the user may not.
          const choices = list.flatMap((a) => channelChoices(a).map((c) => ({ ...c, app: a.name, appId: a.id })));
          if (choices.length === 0) return <Empty>No channel to upload to: create an app with a scheme and a channel first.</Empty>;
          // Opened from an app's page: its channel (the one shown there, or its only one). Otherwise
          // nothing: the first channel of the first app is someone else's app as often as not.
          const ofApp = choices.filter((c) => c.appId === wantedApp);
          const preferred = ofApp.find((c) => c.slug === wantedChannel)?.slug ?? (ofApp.length === 1 ? ofApp[0]!.slug : undefined);
          return <Uploader choices={choices} preferred={preferred} />;
        }}
      </Show>
    </>
  );
}

type Phase = { kind: 'idle' } | { kind: 'uploading'; sent: number; total: number } | { kind: 'finishing' } | { kind: 'done'; release: Schemas['Release'] } | { kind: 'failed'; error: Error };

function Uploader({ choices, preferred }: { choices: (ChannelChoice & { app: string })[]; preferred?: string | undefined }) {
  const pending = readPending();
  const remembered = choices.find((c) => c.slug === pending?.channelKey)?.slug;
  const [channelKey, setChannelKey] = useState(remembered ?? preferred ?? '');
  const destination = choices.find((c) => c.slug === channelKey);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [dragging, setDragging] = useState(false);
  const upload = useRef<Upload | undefined>(undefined);
  useEffect(() => () => void upload.current?.abort(), []);

  const start = async (file: File) => {
    setPhase({ kind: 'uploading', sent: 0, total: file.size });
    localStorage.setItem(PENDING_KEY, JSON.stringify({ fileName: file.name, size: file.size, channelKey } satisfies Pending));
    const tus = new Upload(file, {
      endpoint: '/api/uploads',
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      metadata: { filename: file.name, purpose: 'package', channel_key: channelKey },
      headers: { 'X-CSRF-Token': currentCsrfToken() },
      // The URL of each file's upload is kept in localStorage (tus-js-client's default store):
      // after a reload, picking the same file again carries on from the server's offset.
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setPhase({ kind: 'uploading', sent, total }),
      onError: (error) => setPhase({ kind: 'failed', error: new Error(serverMessage(error)) }),
      onSuccess: async () => {
        setPhase({ kind: 'finishing' });
        const uploadId = tus.url!.split('/').pop()!;
        try {
          const release = await must(api.POST('/api/apps/upload', { body: { upload_id: uploadId, channel_key: channelKey } }));
          localStorage.removeItem(PENDING_KEY);
          setPhase({ kind: 'done', release });
        } catch (error) {
          setPhase({ kind: 'failed', error: error as Error });
        }
      },
    });
    upload.current = tus;
    const previous = await tus.findPreviousUploads();
    if (previous[0]) tus.resumeFromPreviousUpload(previous[0]);
    tus.start();
  };

  const pick = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) void start(file);
  };
  const busy = phase.kind === 'uploading' || phase.kind === 'finishing';
  const blocked = busy || !destination;
  return (
    <>
      <ChannelPicker id="upload-channel" choices={choices} value={channelKey} onChange={setChannelKey} placeholder="Choose the app and channel…" />
      <p class="destination" id="upload-destination" aria-live="polite">
        {destination ? (
          <>
            Goes to <strong>{destination.app}</strong> · {destination.label}
          </>
        ) : (
          'Choose where the build goes first: the file can be picked once a channel is chosen.'
        )}
      </p>
      {pending && phase.kind === 'idle' && (
        <p class="notice" role="status">
          An upload of {pending.fileName} ({formatBytes(pending.size)}) did not finish. Choose the same file again to carry on where it stopped.
        </p>
      )}
      <div
        class={`drop ${dragging ? 'over' : ''} ${blocked ? 'blocked' : ''}`}
        onDragOver={(e) => (e.preventDefault(), setDragging(true))}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (!blocked) pick(e.dataTransfer?.files);
        }}
      >
        <p>Drop an .ipa, .apk, .aab, .dmg, .exe, .msi, .deb, .rpm or .AppImage here, or</p>
        <label for="package-file" class="button primary" aria-disabled={blocked ? true : undefined}>
          Choose a file
        </label>
        <input id="package-file" class="visually-hidden" type="file" disabled={blocked} aria-describedby="upload-destination" onChange={(e) => pick(e.currentTarget.files)} />
      </div>
      {phase.kind === 'uploading' && (
        <div>
          <label for="upload-progress">
            Uploading: {formatBytes(phase.sent)} of {formatBytes(phase.total)}
          </label>
          <progress id="upload-progress" max={phase.total || 1} value={phase.sent} />
          <button type="button" onClick={() => void upload.current?.abort().then(() => setPhase({ kind: 'idle' }))}>
            Pause
          </button>
        </div>
      )}
      {phase.kind === 'finishing' && <p role="status">Reading the package…</p>}
      {phase.kind === 'failed' && <ErrorNote error={phase.error} />}
      {phase.kind === 'done' && (
        <p role="status">
          Uploaded: <Link href={`/builds/${phase.release.id}`}>{phase.release.app_name} {phase.release.release_version} ({phase.release.build_version})</Link>
        </p>
      )}
    </>
  );
}

/** tus-js-client's errors carry the server's answer; its contract body has the message. */
function serverMessage(error: Error): string {
  const body = (error as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  try {
    const parsed = body ? (JSON.parse(body) as { error?: string }) : undefined;
    if (parsed?.error) return parsed.error;
  } catch {
    // not JSON: fall through
  }
  return error.message;
}

