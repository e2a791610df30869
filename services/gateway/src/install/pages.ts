import type { releases } from '@hangar/proto';
import { formatTimestamp } from '../http/timestamps';
import { escapeHtml, humanSize, iconClasses, layout } from './html';
import { signingSection, signingWarnings } from './signing-section';

export interface ReleaseLinks {
  icon: string;
  qrcode: string;
  /** itms-services:// link on iOS, the download URL elsewhere. */
  install: string;
  channelPage: string;
}

/**
 * What a tester sees for one build: who, what, when, what changed, and the button. `leftOut`: the
 * names of the signed-in tester's devices its provisioning profile does not list.
 */
export function releasePage(release: releases.Release, links: ReleaseLinks, leftOut: string[] = []): string {
  const ctx = release.context!;
  const isIos = release.platform === 'iOS';
  const facts: [string, string][] = [
    ['Version', `${release.releaseVersion} (${release.buildVersion})`],
    ['Platform', `${release.platform}${release.deviceType && release.deviceType !== release.platform ? ` · ${release.deviceType}` : ''}`],
    ['Size', humanSize(release.size)],
    ['Uploaded', formatTimestamp(release.createdAtMs).replace('T', ' ').slice(0, 16) + ' UTC'],
    ...(release.bundleId ? ([['Bundle ID', release.bundleId]] as [string, string][]) : []),
    ...(release.releaseType ? ([['Release type', release.releaseType]] as [string, string][]) : []),
    ...(release.branch ? ([['Branch', release.branch]] as [string, string][]) : []),
    ...(release.gitCommit ? ([['Commit', release.gitCommit.slice(0, 12)]] as [string, string][]) : []),
  ];
  const changelog = release.changelog.length
    ? `<section aria-labelledby="changes"><h2 id="changes">What's new</h2><ul class="changelog">${release.changelog
        .map((e) => `<li>${escapeHtml(e.message)}${e.author ? ` <span class="muted">— ${escapeHtml(e.author)}</span>` : ''}</li>`)
        .join('')}</ul></section>`
    : '';
  const custom = release.customFields.length
    ? `<section aria-labelledby="details"><h2 id="details">Details</h2><ul class="custom-fields">${release.customFields
        .map((f) => {
          const icon = iconClasses(f.icon);
          return `<li>${icon ? `<i class="${icon}" aria-hidden="true"></i> ` : ''}<span class="label">${escapeHtml(f.name)}</span> <span class="value">${escapeHtml(f.value)}</span></li>`;
        })
        .join('')}</ul></section>`
    : '';
  const button = isIos
    ? `<a class="button" href="${escapeHtml(links.install)}"><i class="fa-solid fa-download" aria-hidden="true"></i> Install</a>
       <p class="hint">Open this page on the iPhone or iPad to install. iOS installs only over HTTPS.</p>`
    : `<a class="button" href="${escapeHtml(links.install)}" download><i class="fa-solid fa-download" aria-hidden="true"></i> Download</a>`;

  return layout(
    `${release.appName} ${release.releaseVersion}`,
    `<header class="hero">
  <img class="app-icon" src="${escapeHtml(links.icon)}" alt="${escapeHtml(release.appName)} icon" width="96" height="96">
  <div>
    <h1>${escapeHtml(release.appName)}</h1>
    <p class="muted"><a href="${escapeHtml(links.channelPage)}">${escapeHtml(ctx.app!.name)} · ${escapeHtml(ctx.scheme!.name)} · ${escapeHtml(ctx.channel!.name)}</a></p>
  </div>
</header>
${signingWarnings(release)}
${leftOutWarning(leftOut)}
<section class="actions" aria-label="Install">
  ${button}
  <figure class="qrcode"><img src="${escapeHtml(links.qrcode)}" alt="QR code linking to this page" width="192" height="192"><figcaption>Scan to open on a phone</figcaption></figure>
</section>
<section aria-labelledby="about"><h2 id="about">About this build</h2>
<dl class="facts">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>
</section>
${signingSection(release)}
${changelog}
${custom}`,
  );
}

/** Said before the button, so the install is not tried only to fail without a word (iOS says nothing useful). */
function leftOutWarning(devices: string[]): string {
  if (devices.length === 0) return '';
  const names = devices.map(escapeHtml).join(devices.length === 2 ? ' and ' : ', ');
  return `<section class="warning" role="alert" aria-labelledby="device-warning"><h2 id="device-warning"><i class="fa-solid fa-triangle-exclamation" aria-hidden="true"></i> This build won't install on ${names}</h2><p>Its provisioning profile does not list ${devices.length === 1 ? 'that device' : 'those devices'}: ask the app's team for a new build that includes ${devices.length === 1 ? 'it' : 'them'}. They can see your registered devices.</p></section>`;
}

/** A channel's builds, newest first, paginated. */
export function channelPage(list: releases.ReleaseList, page: number, perPage: number, releaseUrl: (id: number) => string, pageUrl: (n: number) => string): string {
  const ctx = list.context!;
  const last = Math.max(1, Math.ceil(list.total / perPage));
  const rows = list.releases
    .map(
      (r) => `<li><a href="${escapeHtml(releaseUrl(r.id))}"><span class="version">${escapeHtml(r.releaseVersion)} (${escapeHtml(r.buildVersion)})</span>
<span class="muted">#${r.version} · ${escapeHtml(formatTimestamp(r.createdAtMs).slice(0, 10))} · ${escapeHtml(humanSize(r.size))}</span></a></li>`,
    )
    .join('');
  const nav = `<nav class="pager" aria-label="Pages">${page > 1 ? `<a href="${escapeHtml(pageUrl(page - 1))}" rel="prev">Newer</a>` : ''}<span>Page ${page} of ${last}</span>${
    page < last ? `<a href="${escapeHtml(pageUrl(page + 1))}" rel="next">Older</a>` : ''
  }</nav>`;
  return layout(
    `${ctx.app!.name} · ${ctx.channel!.name}`,
    `<header><h1>${escapeHtml(ctx.app!.name)}</h1><p class="muted">${escapeHtml(ctx.scheme!.name)} · ${escapeHtml(ctx.channel!.name)}</p></header>
<section aria-labelledby="builds"><h2 id="builds">Builds</h2>${rows ? `<ol class="releases">${rows}</ol>` : '<p>No builds yet.</p>'}</section>
${nav}`,
  );
}

/** The password gate of a protected channel. */
export function passwordPage(channelName: string, action: string, next: string, problem?: string): string {
  return layout(
    channelName,
    `<header><h1><i class="fa-solid fa-lock" aria-hidden="true"></i> ${escapeHtml(channelName)}</h1><p>This channel is protected. Enter its password to continue.</p></header>
<form method="post" action="${escapeHtml(action)}" class="password-form">
  <input type="hidden" name="next" value="${escapeHtml(next)}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required autofocus${problem ? ' aria-invalid="true" aria-describedby="password-error"' : ''}>
  ${problem ? `<p id="password-error" class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
  <button type="submit" class="button">Unlock</button>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<header><h1>${escapeHtml(title)}</h1></header><p>${escapeHtml(message)}</p>`);
}
