import type { Locator, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the browser tests leave screenshots for a person to look at (git-ignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The viewport as the user first sees it, or the whole page (`fullPage`) for a look below the fold. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  return path;
}

export interface LayoutReport {
  /** How far the page scrolls sideways (0 when it fits). */
  readonly overflow: number;
  /** Checkboxes, radios and switches wider than 48 px, or not on the first line of their label. */
  readonly badControls: readonly string[];
  readonly headerHeight: number;
}

/** What a picky user would notice on any screen: sideways scrolling, blown-up controls, a header on two lines. */
export function layoutReport(page: Page): Promise<LayoutReport> {
  return page.evaluate(() => {
    const overflow = Math.max(0, document.documentElement.scrollWidth - window.innerWidth);
    const badControls: string[] = [];
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type=checkbox], input[type=radio]')) {
      const box = input.getBoundingClientRect();
      if (box.width <= 1 || input.closest('.visually-hidden')) continue;
      const label = input.closest('label') ?? (input.id ? document.querySelector(`label[for="${input.id}"]`) : null);
      const name = `${input.type} “${label?.textContent?.trim() ?? input.name}”`;
      if (box.width > 48) badControls.push(`${name} is ${Math.round(box.width)} px wide`);
      if (!label) continue;
      const text = document.createRange();
      text.selectNodeContents(label);
      const firstLine = [...text.getClientRects()].find((rect) => rect.width > 0 && rect.left > box.right - 1);
      if (!firstLine) badControls.push(`${name} has no words beside it`);
      else if (Math.abs(firstLine.top + firstLine.height / 2 - (box.top + box.height / 2)) > 12)
        badControls.push(`${name} is not on its label's line`);
    }
    const header = document.querySelector('.app-header')?.getBoundingClientRect().height ?? 0;
    return { overflow, badControls, headerHeight: Math.round(header) };
  });
}

export interface Shown {
  /** How far it sticks out of the viewport on each side, in px (all 0 when a screenshot shows the whole of it). */
  readonly sticksOut: { readonly top: number; readonly right: number; readonly bottom: number; readonly left: number };
  /** What lies over its middle instead of it (a toast, a sheet), or null when nothing does. */
  readonly coveredBy: string | null;
}

/** How much of an element a screenshot of the viewport shows, or null when it takes no space on the page. */
export function howShown(element: Locator): Promise<Shown | null> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return null;
    const past = (amount: number) => Math.max(0, Math.ceil(amount));
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const coveredBy =
      top && !node.contains(top) ? `${top.tagName.toLowerCase()}.${[...top.classList].join('.')}` : null;
    return {
      sticksOut: {
        top: past(-box.top),
        right: past(box.right - window.innerWidth),
        bottom: past(box.bottom - window.innerHeight),
        left: past(-box.left),
      },
      coveredBy,
    };
  });
}

/** The three sizes every screen of issue 24 is looked at: two phones and a laptop. */
export const LOOK_SIZES = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;

/**
 * `name` at each of LOOK_SIZES in light and dark (`name-<w>x<h>-<scheme>`), then back to 390×844 light, where the
 * phone tests go on. With `show`, that element is scrolled into view at each size first (to the middle of the
 * screen, or its bottom edge to the screen's with `block: 'end'`, so that what is above it shows too). With `check`,
 * what each screenshot must show is asserted just before it is taken.
 */
export async function screenshotsEverywhere(
  page: Page,
  name: string,
  options: {
    show?: Locator;
    block?: 'center' | 'end';
    check?: (look: { size: (typeof LOOK_SIZES)[number]; scheme: 'light' | 'dark' }) => Promise<void>;
  } = {},
): Promise<void> {
  for (const scheme of ['light', 'dark'] as const)
    for (const size of LOOK_SIZES) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(size);
      await options.show?.evaluate((element, block) => element.scrollIntoView({ block }), options.block ?? 'center');
      await options.check?.({ size, scheme });
      await screenshot(page, `${name}-${size.width}x${size.height}-${scheme}`);
    }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(LOOK_SIZES[1]);
}
