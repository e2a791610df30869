import { useState } from 'preact/hooks';
import { api, must, mustPage } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Link } from '../router';
import { atLeast, roleOn, useSession } from '../session';
import { formatBytes, formatTime } from '../ui/format';
import { Empty, ErrorNote, Show } from '../ui/states';
import { useAction } from '../ui/use-action';
import { ChannelPicker, channelChoices } from './channel-picker';

type DebugFile = Schemas['DebugFile'];

/** Debug files of an app, a channel at a time: by version, by UUID; upload, download, delete. */
export function DebugFilesPage({ appId }: { appId: number }) {
  const { user } = useSession();
  const app = useApi(() => must(api.GET('/api/apps/{id}', { params: { path: { id: String(appId) } } })), [appId]);
  const [chosen, setChosen] = useState('');
  return (
    <Show state={app} what="the app">
      {(a) => {
        const choices = channelChoices(a);
        const channelKey = chosen || choices[0]?.slug || '';
        return (
          <>
            <p class="crumbs">
              <Link href={`/apps/${a.id}`}>{a.name}</Link>
            </p>
            <h1>Debug files of {a.name}</h1>
            {choices.length === 0 ? (
              <Empty>This app has no channels yet: debug files belong to a channel.</Empty>
            ) : (
              <>
                <ChannelPicker id="debug-channel" choices={choices} value={channelKey} onChange={setChosen} />
                <ChannelDebugFiles key={channelKey} channelKey={channelKey} mayChange={atLeast(roleOn(user, a), 'developer')} />
              </>
            )}
          </>
        );
      }}
    </Show>
  );
}

function ChannelDebugFiles({ channelKey, mayChange }: { channelKey: string; mayChange: boolean }) {
  const [uuid, setUuid] = useState('');
  const [search, setSearch] = useState('');
  const files = useApi(
    () => mustPage(api.GET('/api/debug_files', { params: { query: { channel_key: channelKey, per_page: '100', ...(search ? { uuid: search } : {}) } } })),
    [channelKey, search],
  );
  return (
    <>
      <form
        class="inline"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(uuid.trim());
        }}
      >
        <div class="field">
          <label for="uuid-search">Find by UUID or debug id</label>
          <input id="uuid-search" type="search" class="mono" value={uuid} onInput={(e) => setUuid(e.currentTarget.value)} />
        </div>
        <button type="submit">Search</button>
        {search && (
          <button type="button" onClick={() => (setUuid(''), setSearch(''))}>
            Show all
          </button>
        )}
      </form>
      {mayChange && <UploadDebugFile channelKey={channelKey} onUploaded={files.reload} />}
      <Show state={files} what="debug files">
        {({ items }) =>
          items.length === 0 ? <Empty>{search ? `No debug file has the id ${search}.` : 'No debug files in this channel yet.'}</Empty> : <ByVersion files={items} channelKey={channelKey} mayChange={mayChange} onDeleted={files.reload} />
        }
      </Show>
    </>
  );
}

function ByVersion({ files, channelKey, mayChange, onDeleted }: { files: DebugFile[]; channelKey: string; mayChange: boolean; onDeleted: () => void }) {
  const groups = new Map<string, DebugFile[]>();
  for (const f of files) {
    const key = `${f.release_version} (${f.build_version})`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return (
    <>
      {[...groups].map(([version, list]) => (
        <section key={version} aria-label={`Version ${version}`}>
          <h2>{version}</h2>
          <ul class="plain rows">
            {list.map((f) => (
              <DebugFileRow key={f.id} file={f} channelKey={channelKey} mayChange={mayChange} onDeleted={onDeleted} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function DebugFileRow({ file, channelKey, mayChange, onDeleted }: { file: DebugFile; channelKey: string; mayChange: boolean; onDeleted: () => void }) {
  const remove = useAction(() => must(api.DELETE('/api/debug_files/{id}', { params: { path: { id: String(file.id) }, query: { channel_key: channelKey } } })));
  const ids = file.metadata.map((m) => (m.uuid ? `${m.type} ${m.uuid}` : m.object)).filter(Boolean);
  return (
    <li>
      <span>
        <strong>{file.kind}</strong> <span class="muted">{formatTime(file.created_at)}</span>
        {ids.length > 0 && <span class="mono wrap small"> {ids.join(', ')}</span>}
      </span>
      <a href={file.file_url}>Download</a>
      {mayChange && (
        <button type="button" class="danger" onClick={async () => confirm('Delete this debug file?') && (await remove.act()) && onDeleted()}>
          Delete
        </button>
      )}
      {remove.error && <ErrorNote error={remove.error} />}
    </li>
  );
}

function UploadDebugFile({ channelKey, onUploaded }: { channelKey: string; onUploaded: () => void }) {
  const upload = useAction((file: File, releaseVersion: string, buildVersion: string) =>
    must(
      api.POST('/api/debug_files/upload', {
        // Streamed by the gateway: the text fields come before the file.
        body: { channel_key: channelKey, release_version: releaseVersion, build_version: buildVersion, file: file as unknown as string },
        bodySerializer: (body) => {
          const form = new FormData();
          for (const [k, v] of Object.entries(body as Record<string, string | Blob>)) if (v !== '') form.append(k, v);
          return form;
        },
      }),
    ),
  );
  return (
    <form
      class="panel"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const file = data.get('file');
        if (!(file instanceof File) || file.size === 0) return;
        if (await upload.act(file, String(data.get('release_version') ?? ''), String(data.get('build_version') ?? ''))) {
          form.reset();
          onUploaded();
        }
      }}
    >
      <h2>Upload a debug file</h2>
      <p class="muted">dSYM zips, ProGuard mappings (with their version), ELF, PDB, PE and Breakpad files.</p>
      <div class="grid">
        <div class="field">
          <label for="debug-file">File</label>
          <input id="debug-file" name="file" type="file" required />
        </div>
        <div class="field">
          <label for="debug-release-version">Release version (ProGuard)</label>
          <input id="debug-release-version" name="release_version" />
        </div>
        <div class="field">
          <label for="debug-build-version">Build version (ProGuard)</label>
          <input id="debug-build-version" name="build_version" />
        </div>
      </div>
      <button type="submit" disabled={upload.busy}>
        {upload.busy ? 'Uploading…' : 'Upload'}
      </button>
      {upload.error && <ErrorNote error={upload.error} />}
    </form>
  );
}
