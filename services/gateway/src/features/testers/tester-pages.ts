import { escapeHtml, layout } from '../../install/html';
import type { TesterView } from './tester-view';

const PLATFORM_ICONS: Record<string, string> = { ios: 'fa-brands fa-apple', macos: 'fa-brands fa-apple', android: 'fa-brands fa-android', windows: 'fa-brands fa-windows', linux: 'fa-brands fa-linux' };

/** The signed-in tester's builds, channel by channel, each linking to its install page; their devices below. */
export function testerHomePage(view: TesterView): string {
  const deviceName = new Map(view.devices.map((d) => [d.id, d.name]));
  const sections = view.channels
    .map((channel) => {
      const builds = channel.builds
        .map((b) => {
          const leftOut = b.left_out_devices.map((id) => deviceName.get(id) ?? '').filter(Boolean);
          const warning = leftOut.length ? ` <span class="not-for-device"><i class="fa-solid fa-triangle-exclamation" aria-hidden="true"></i> won't install on ${escapeHtml(leftOut.join(', '))}</span>` : '';
          return `<li><a href="${escapeHtml(b.install_page)}"><span class="version">${escapeHtml(b.release_version)} (${escapeHtml(b.build_version)})</span> <span class="muted">${escapeHtml(b.created_at.slice(0, 10))}</span></a>${warning}</li>`;
        })
        .join('');
      const icon = PLATFORM_ICONS[channel.device_type] ?? 'fa-solid fa-box';
      return `<section aria-labelledby="channel-${channel.channel_id}"><h2 id="channel-${channel.channel_id}"><i class="${icon}" aria-hidden="true"></i> ${escapeHtml(channel.app_name)} · ${escapeHtml(channel.name)}</h2>${
        builds ? `<ol class="releases">${builds}</ol>` : '<p>No builds yet.</p>'
      }</section>`;
    })
    .join('\n');
  const hasIos = view.channels.some((c) => c.device_type === 'ios');
  const devices = view.devices.length
    ? `<section aria-labelledby="devices"><h2 id="devices"><i class="fa-solid fa-mobile-screen" aria-hidden="true"></i> Your devices</h2><ul class="my-devices">${view.devices
        .map((d) => `<li>${escapeHtml(d.name)} <span class="muted">${escapeHtml(d.product)}</span></li>`)
        .join('')}</ul><p><a href="/tester/devices">Manage your devices</a></p></section>`
    : hasIos
      ? '<section aria-labelledby="devices"><h2 id="devices"><i class="fa-solid fa-mobile-screen" aria-hidden="true"></i> Your devices</h2><p>Ad hoc builds install only on the devices they were made for. <a href="/udid">Register this iPhone or iPad</a> (open this page on it) to see which builds will install on it, and so that the next build includes it.</p></section>'
      : '';
  return layout(
    'Your builds',
    `<header><h1>Your builds</h1><p class="muted">Signed in as ${escapeHtml(view.email)}</p></header>
${sections || '<p>None of your groups has a channel yet.</p>'}
${devices}
<form method="post" action="/tester/sign-out"><button type="submit" class="button secondary">Sign out</button></form>`,
  );
}

/** Where a tester without a session lands: a new sign-in link by e-mail. */
export function testerSignInPage(problem?: string): string {
  return layout(
    'Tester sign-in',
    `<header><h1>Tester sign-in</h1><p>${escapeHtml(problem ?? 'Enter the address your invitation went to: a sign-in link is e-mailed to it.')}</p></header>
<form method="post" action="/tester/sign-in" class="password-form">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="email" required autofocus>
  <button type="submit" class="button">Send me a link</button>
</form>`,
  );
}

/**
 * A group's join link opened: the form for the address to invite. It posts to the page's own address, the link with its `token`, so the
 * secret is never copied into the page: an answer holds no credential it was sent (a stranger's
 * URL holding a token would otherwise have it reflected; tests/e2e/hostile-routes.test.ts).
 */
export function joinPage(problem?: string): string {
  return layout(
    'Join the testers',
    `<header><h1>Join the testers</h1><p>Enter your e-mail address: a sign-in link is sent to it.</p></header>
<form method="post" class="password-form">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="email" required autofocus${problem ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
  ${problem ? `<p id="email-error" class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
  <button type="submit" class="button">Join</button>
</form>`,
  );
}

export function checkYourMailPage(): string {
  return layout('Check your e-mail', '<header><h1>Check your e-mail</h1></header><p>If the address belongs to a tester, a sign-in link is on its way to it. The link works once.</p>');
}

/**
 * The confirmation of an unsubscribe link (a POST, so a link scanner unsubscribes nobody), posted
 * to the link itself: its key stays in the link, never copied into the page (as the join form).
 */
export function unsubscribePage(): string {
  return layout(
    'Unsubscribe',
    `<header><h1>Unsubscribe</h1><p>Stop the e-mails about new builds of this group?</p></header>
<form method="post" class="password-form">
  <button type="submit" class="button">Unsubscribe</button>
</form>`,
  );
}
