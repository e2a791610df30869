import type { Page } from 'playwright-core';

/** The two screens the console is held to: a phone and a laptop. */
export const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;
export type Size = (typeof SIZES)[number];

/** Runs `check` with the page at each size in turn; a failure names the size. */
export async function atEachSize(page: Page, check: (size: Size) => Promise<void>): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    try {
      await check(size);
    } catch (err) {
      if (err instanceof Error) err.message = `at ${size.name} (${size.width}×${size.height}): ${err.message}`;
      throw err;
    }
  }
}

/** Whether the element lies across the screen's width, nothing of it past either edge or hidden by a scroller. */
export async function fullyOnScreen(selector: ReturnType<Page['locator']>, width: number): Promise<boolean> {
  const box = await selector.boundingBox();
  if (!box || box.width === 0) return false;
  if (box.x < 0 || box.x + box.width > width) return false;
  // Not clipped by an ancestor that scrolls sideways.
  // (Browser code: the tests' type-check has no DOM types, hence the `any`.)
  return selector.evaluate((el: any) => {
    const rect = el.getBoundingClientRect();
    for (let p = el.parentElement; p; p = p.parentElement) {
      if ((globalThis as any).getComputedStyle(p).overflowX !== 'visible') {
        const clip = p.getBoundingClientRect();
        if (rect.left < clip.left - 0.5 || rect.right > clip.right + 0.5) return false;
      }
    }
    return true;
  });
}

/** The clipboard's text as the page sees it (the context needs the clipboard permissions). */
export const clipboardText = (page: Page) => page.evaluate('navigator.clipboard.readText()') as Promise<string>;
