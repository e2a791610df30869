import { Link } from '../router';
import { Snippet } from '../ui/copy';

/** A shell word as sh reads it: quoted only when it needs to be. */
const shellWord = (value: string) => (/^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/**
 * What to do when there is nothing yet: the exact command that uploads a build to this server,
 * for curl, the hangar CLI and fastlane's Zealot plugin, each copyable. With a channel key the
 * build goes to that channel; without, the upload makes the app (named `appName`, else as the
 * package names itself), an `Adhoc` scheme and a channel for its platform.
 */
export function FirstBuild({ channelKey, appName, heading = 'Upload your first build' }: { channelKey?: string | undefined; appName?: string | undefined; heading?: string }) {
  const server = location.origin;
  const target = channelKey ? ` -F channel_key=${shellWord(channelKey)}` : appName ? ` -F name=${shellWord(appName)}` : '';
  const curl = `curl -H "Authorization: Bearer $HANGAR_TOKEN"${target} -F file=@app.apk ${server}/api/apps/upload`;
  const cliTarget = channelKey ? ` --channel-key ${shellWord(channelKey)}` : appName ? ` --name ${shellWord(appName)}` : '';
  const cli = `HANGAR_URL=${server} hangar upload app.apk${cliTarget}`;
  const fastlane = channelKey && `zealot(\n  endpoint: '${server}',\n  token: ENV['HANGAR_TOKEN'],\n  channel_key: '${channelKey}',\n  file: 'app.apk'\n)`;
  return (
    <section class="first-build" aria-labelledby="first-build-heading">
      <h2 id="first-build-heading">{heading}</h2>
      <p>
        Any .ipa, .apk, .aab, .dmg, .exe, .msi, .deb, .rpm or .AppImage: from your CI with one of these, or from this browser on the <Link href="/upload">Upload</Link> page.{' '}
        {channelKey ? 'They upload into this channel.' : 'The upload makes the app and a channel for its platform.'} <code>$HANGAR_TOKEN</code> is a token from{' '}
        <Link href="/account#tokens-heading">your account</Link>: give CI one limited to <em>upload</em>.
      </p>
      <Snippet title="curl" text={curl} copyLabel="Copy curl command" />
      <Snippet title="hangar CLI" text={cli} copyLabel="Copy hangar command" />
      <p class="muted small">
        <code>hangar</code> is in Hangar&apos;s image; in a clone of Hangar after <code>npm install</code>, <code>npx hangar</code>. It reads <code>HANGAR_TOKEN</code> too.
      </p>
      {fastlane ? (
        <Snippet title="fastlane (Zealot plugin)" text={fastlane} copyLabel="Copy fastlane action" />
      ) : (
        <p class="muted small">fastlane&apos;s zealot action needs a channel key: once the first build is in, its channel&apos;s page shows the action for it.</p>
      )}
    </section>
  );
}
