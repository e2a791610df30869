import fs from 'node:fs';
import path from 'node:path';
import { Browser, Page, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(__dirname, '..', '..', '..', 'test-output', 'console');
/**
 * Whether lookAt saves its screenshots (test-output/console, for a person to open): CI sets
 * HANGAR_TEST_SCREENSHOTS=0, as nobody opens them there and encoding full-page PNGs is Chromium's
 * largest share of the tier; every other check of lookAt runs either way.
 */
const SAVE_SCREENSHOTS = process.env.HANGAR_TEST_SCREENSHOTS !== '0';
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export function launchChromium(): Promise<Browser> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now, named so a failure says what and where. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated, not injected as a tag: the console's CSP (rightly) refuses inline scripts. Once per
  // document: lookAt asks again after switching to dark, on the same page.
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(AXE);
  const violations = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)')) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * A page looked at as people will: at phone and desktop widths, in light and
 * dark appearance, each screenshot saved, each state checked by axe-core, and
 * nothing wider than a phone's screen.
 */
export async function lookAt(page: Page, name: string): Promise<void> {
  const problems: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(50);
      if (label === 'phone') {
        const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
        if (width > viewport.width) problems.push(`${scheme} ${label}: ${width}px wide, wider than the screen`);
      }
      if (SAVE_SCREENSHOTS && (scheme === 'light' || label === 'desktop')) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${label}${scheme === 'dark' ? '-dark' : ''}.png`), fullPage: true });
      if (label === 'desktop') problems.push(...(await seriousViolations(page)).map((v) => `${scheme}: ${v}`));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
  if (problems.length > 0) throw new Error(`${name}:\n${problems.join('\n')}`);
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
}
