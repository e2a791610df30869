#!/usr/bin/env node
// `npm run screenshots:teams`: the Adaptive Card a `teams` webhook posts for a new build, made by
// the webhooks service's own code (services/webhooks/dist, so build first), checked as the tests
// check it, and rendered by Microsoft's `adaptivecards` renderer in Chromium (CHROMIUM_PATH, else
// /usr/bin/chromium) into docs/screenshots/chat/teams-card.png. The folder is apart from the
// console's pages, which `npm run screenshots` clears and writes again.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'services', 'webhooks', 'package.json'));
const { chatBody } = require(path.join(root, 'services', 'webhooks', 'dist', 'domain', 'chat', 'formats.js'));
const { teamsMessageProblems } = require(path.join(root, 'libs', 'testing', 'dist', 'chat-message-checks.js'));
const { chromium } = createRequire(path.join(root, 'tests', 'package.json'))('playwright-core');
const OUT = path.join(root, 'docs', 'screenshots', 'chat');

// A release.created payload as a delivery freezes it (docs/events.md), with PUBLIC_BASE_URL set.
const payload = {
  app: { id: 4, name: 'Hangar Demo' },
  scheme: { id: 5, name: 'Beta' },
  channel: { id: 6, slug: 'k3x9', name: 'Android', device_type: 'android' },
  release: {
    id: 128, version: 42, app_name: 'Hangar Demo', release_version: '2.4.0', build_version: '1187', platform: 'Android',
    branch: 'release/2.4', git_commit: '9f2c4e1ab37d55c0',
    release_url: 'https://hangar.example.com/releases/128',
    changelog: [{ message: 'Sign in with a passkey' }, { message: 'Offline mode keeps the last 50 documents' }, { message: 'Fixed a crash when rotating during upload' }],
  },
};
const message = JSON.parse(chatBody('teams', 'release.created', JSON.stringify(payload)));
const problems = teamsMessageProblems(message);
if (problems.length > 0) throw new Error(`the card is not one Teams would take: ${problems.join('; ')}`);
const card = message.attachments[0].content;

// Teams' light theme, in the few settings that change how this card looks.
const hostConfig = {
  fontFamily: "'Segoe UI', system-ui, -apple-system, sans-serif",
  containerStyles: { default: { backgroundColor: '#FFFFFF', foregroundColors: { default: { default: '#242424', subtle: '#616161' }, accent: { default: '#5B5FC7' } } } },
  actions: { actionsOrientation: 'horizontal', actionAlignment: 'left', buttonSpacing: 8, showCard: { actionMode: 'inline' } },
  spacing: { small: 4, default: 8, medium: 16, large: 20, extraLarge: 24, padding: 16 },
};

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  const page = await browser.newPage({ viewport: { width: 560, height: 700 }, deviceScaleFactor: 2 });
  await page.setContent(`<!doctype html><html><head><style>
    body { margin: 0; padding: 24px; background: #f5f5f5; font-family: 'Segoe UI', system-ui, sans-serif; }
    #card { width: 460px; border-radius: 6px; box-shadow: 0 1px 3px rgba(0,0,0,.15); overflow: hidden; background: #fff; }
    .ac-pushButton { border: 1px solid #d1d1d1; border-radius: 4px; background: #fff; padding: 6px 14px; font: 600 14px 'Segoe UI', system-ui, sans-serif; color: #242424; }
    .ac-pushButton.style-positive { background: #5b5fc7; border-color: #5b5fc7; color: #fff; }
  </style></head><body><div id="card"></div></body></html>`);
  await page.addScriptTag({ path: require.resolve('adaptivecards/dist/adaptivecards.min.js') });
  const errors = await page.evaluate(({ card, hostConfig }) => {
    const AC = window.AdaptiveCards;
    const adaptive = new AC.AdaptiveCard();
    adaptive.hostConfig = new AC.HostConfig(hostConfig);
    const context = new AC.SerializationContext();
    adaptive.parse(card, context);
    document.getElementById('card').appendChild(adaptive.render());
    return Array.from({ length: context.eventCount }, (_, i) => context.getEventAt(i).message);
  }, { card, hostConfig });
  if (errors.length > 0) throw new Error(`the renderer complained: ${errors.join('; ')}`);
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, 'teams-card.png');
  await page.locator('#card').screenshot({ path: file });
  process.stdout.write(`wrote ${path.relative(root, file)}\n`);
} finally {
  await browser.close();
}
