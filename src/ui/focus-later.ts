/**
 * The keyboard's place across a change React makes later (a row deleted once its store has written, a screen whose
 * chunk is still loading): the focus moves once the page has changed, never before, and never against the user.
 */

/** How long a wait may last: the change normally comes within a frame or two; a failed one never does. */
const GIVE_UP_MS = 5_000;

type Find = () => HTMLElement | null | undefined;

/**
 * The first element of `selector` whose attribute `name` is `value`: compared, not written into a selector (no
 * escaping, which some DOMs lack as `CSS.escape`).
 */
export const withAttribute = (
  root: ParentNode,
  selector: string,
  name: string,
  value: string,
): HTMLElement | undefined =>
  [...root.querySelectorAll<HTMLElement>(selector)].find((element) => element.getAttribute(name) === value);

/**
 * Focuses what `find` returns as soon as it is on the page and `ready()` holds, watching the page's changes. Stops
 * without moving the focus when the user acts first (a key or a pointer) or after GIVE_UP_MS. Returns its stop.
 */
export function focusWhen(ready: () => boolean, find: Find): () => void {
  const check = (): boolean => {
    if (!ready()) return false;
    const target = find();
    if (!target?.isConnected) return false;
    stop();
    target.focus();
    return true;
  };
  const observer = new MutationObserver(() => void check());
  const timer = setTimeout(() => stop(), GIVE_UP_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    document.removeEventListener('keydown', stop, true);
    document.removeEventListener('pointerdown', stop, true);
  };
  if (check()) return stop;
  observer.observe(document.body, { childList: true, subtree: true });
  document.addEventListener('keydown', stop, true);
  document.addEventListener('pointerdown', stop, true);
  return stop;
}

/**
 * Once `from` (what has the focus now: a row's bin, a form about to close) has left the page, focuses the first of
 * `targets` that is on it, unless something else took the focus meanwhile.
 */
export function focusWhenGone(from: Element | null, targets: readonly Find[]): () => void {
  const lost = () => document.activeElement === document.body || document.activeElement === null;
  return focusWhen(
    () => from === null || !from.isConnected,
    () => {
      if (!lost()) return null;
      for (const target of targets) {
        const element = target();
        if (element?.isConnected) return element;
      }
      return null;
    },
  );
}

/** The screen's h1 (within `root`, else the page's main), made focusable by script alone (tabIndex -1). */
export function screenHeading(root: ParentNode | null = document.querySelector('main')): HTMLElement | null {
  const heading = root?.querySelector<HTMLElement>('h1') ?? null;
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}
