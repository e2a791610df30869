import { escapeHtml, layout } from '../../install/html';
import type { TesterView } from '../testers/tester-view';
import type { DeviceFit } from './device-fit';

const FIT_TEXT: Record<DeviceFit, string> = {
  in: '<i class="fa-solid fa-circle-check" aria-hidden="true"></i> installs',
  out: '<i class="fa-solid fa-triangle-exclamation" aria-hidden="true"></i> won\'t install: not made for this device',
  unknown: '<i class="fa-solid fa-circle-question" aria-hidden="true"></i> can\'t tell: its profile lists too many devices',
};

/** `/udid` on the device: what the profile does, and the button that downloads it. */
export function udidPage(signedIn: boolean): string {
  const body = signedIn
    ? `<p>Ad hoc and development builds install only on the devices they were made for. Register this iPhone or iPad: Hangar then shows which builds will install on it, and the app's team sees that the next build should include it.</p>
<ol class="steps">
  <li>Tap <strong>Download profile</strong> and allow the download.</li>
  <li>Open <strong>Settings</strong>, tap <strong>Profile Downloaded</strong>, then <strong>Install</strong>. It sends this device's identifier (UDID), model and iOS version, and installs nothing.</li>
  <li>Safari opens your devices page, where you can name this one.</li>
</ol>
<p><a class="button" href="/udid/profile.mobileconfig"><i class="fa-solid fa-download" aria-hidden="true"></i> Download profile</a></p>
<p class="hint">Open this page in Safari on the device itself.</p>`
    : `<p>Sign in as a tester on this device first: open the sign-in link of your invitation in Safari here, or <a href="/tester">ask for a new one</a>. Then come back to this page.</p>`;
  return layout('Register a device', `<header><h1>Register a device</h1></header>\n${body}`);
}

/** The tester's devices: each with its name (editable), model, UDID, and how the newest builds fare on it. */
export function devicesPage(view: TesterView, registeredId?: number, problem?: string): string {
  const builds = view.channels.flatMap((channel) => channel.builds.filter((b) => view.fits.has(b.id)).map((b) => ({ channel, build: b })));
  const devices = view.devices
    .map((device) => {
      const fits = builds
        .map(({ channel, build }) => {
          const fit = view.fits.get(build.id)!.get(device.id) ?? 'out';
          return `<li class="fit-${fit}"><a href="${escapeHtml(build.install_page)}">${escapeHtml(channel.app_name)} · ${escapeHtml(channel.name)} ${escapeHtml(build.release_version)} (${escapeHtml(build.build_version)})</a> — ${FIT_TEXT[fit]}</li>`;
        })
        .join('');
      const notice = device.id === registeredId ? '<p class="notice" role="status">Registered. Give it a name you will recognise.</p>' : '';
      return `<section aria-labelledby="device-${device.id}"><h2 id="device-${device.id}"><i class="fa-solid fa-mobile-screen" aria-hidden="true"></i> ${escapeHtml(device.name)}</h2>
${notice}<dl class="facts"><dt>Model</dt><dd>${escapeHtml(device.product || 'unknown')}</dd><dt>iOS build</dt><dd>${escapeHtml(device.os_version || 'unknown')}</dd><dt>UDID</dt><dd><code>${escapeHtml(device.udid)}</code></dd><dt>Registered</dt><dd>${escapeHtml(device.registered_at.slice(0, 10))}</dd></dl>
${fits ? `<h3>Ad hoc and development builds</h3><ul class="device-fits">${fits}</ul>` : '<p>None of your newest builds is limited to a list of devices: they install on any device.</p>'}
<form method="post" action="/tester/devices/${device.id}/name" class="password-form">
  <label for="name-${device.id}">Name</label>
  <input id="name-${device.id}" name="name" value="${escapeHtml(device.name)}" maxlength="60" required>
  <button type="submit" class="button secondary">Rename</button>
</form>
<form method="post" action="/tester/devices/${device.id}/remove"><button type="submit" class="button secondary">Remove this device</button></form>
</section>`;
    })
    .join('\n');
  return layout(
    'Your devices',
    `<header><h1>Your devices</h1><p class="muted">Signed in as ${escapeHtml(view.email)} · <a href="/tester">your builds</a></p></header>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
${devices || '<p>No device yet.</p>'}
<p><a href="/udid">Register another iPhone or iPad</a> (open the link on it)</p>`,
  );
}
