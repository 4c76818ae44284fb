import { focusWhenGone, screenHeading, withAttribute } from '../../ui/focus-later.ts';

/** A row's ✓ or bin, as its `data-control` names it. */
export type RowControl = 'read' | 'delete';

const ROW = 'li.inbox-entry';

/**
 * Where the focus goes when a row's ✓ or bin has done its work and the button is gone: marked read, the row stays
 * and its bin takes it; deleted (or marked read under the Unread filter), the next row's same control, else the
 * previous row's, else the screen's heading. Rows are found again by their alerts, as React may have redrawn them.
 */
export function keepRowFocus(button: HTMLElement, control: RowControl): void {
  const row = button.closest<HTMLElement>(ROW);
  const screen = button.closest<HTMLElement>('.inbox');
  if (!row || !screen) return;
  const keys = [...screen.querySelectorAll<HTMLElement>(ROW)].map((each) => each.dataset.alert ?? '');
  const at = keys.indexOf(row.dataset.alert ?? '');
  const controlOf = (key: string, which: RowControl) =>
    withAttribute(screen, ROW, 'data-alert', key)?.querySelector<HTMLElement>(`[data-control="${which}"]`);
  // A read row has no ✓: its bin, then.
  const sameControl = (key: string) => () => controlOf(key, control) ?? controlOf(key, 'delete');
  focusWhenGone(button, [
    ...(control === 'read' ? [() => controlOf(keys[at]!, 'delete')] : []),
    ...keys.slice(at + 1).map(sameControl),
    ...keys.slice(0, at).reverse().map(sameControl),
    () => screenHeading(screen),
  ]);
}

/**
 * Where the focus goes when a group's or a day's "Mark these read" has done its work and is gone: its first row's bin
 * (a read row has no ✓), else its fold button (folded, or its rows gone under the Unread filter), else the screen's
 * heading.
 */
export function keepMarkedFocus(button: HTMLElement): void {
  const section = button.closest<HTMLElement>('section');
  const screen = button.closest<HTMLElement>('.inbox');
  const first = section?.querySelector<HTMLElement>(ROW)?.dataset.alert;
  focusWhenGone(button, [
    () =>
      first === undefined
        ? null
        : withAttribute(screen ?? document, ROW, 'data-alert', first)?.querySelector<HTMLElement>(
            '[data-control="delete"]',
          ),
    () => section?.querySelector<HTMLElement>('.inbox-fold'),
    () => screenHeading(screen),
  ]);
}
