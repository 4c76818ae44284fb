import { useEffect, useRef } from 'react';
import { linkFocusedHere, type Route } from '../app/router.ts';
import { useNaming } from '../app/use-naming.ts';
import { focusWhen, screenHeading, withAttribute } from '../ui/focus-later.ts';

const APP_NAME = 'Stacks Watch';

/** What the tab (and a screen reader, on arrival) calls each screen. */
const SCREEN_NAMES: Record<Exclude<Route['screen'], 'address'>, string> = {
  home: 'Watch list',
  settings: 'Settings',
  inbox: 'Inbox',
  privacy: 'Who knows what',
  receive: 'Add from another device',
  'not-found': 'Page not found',
};

/**
 * What tells a keyboard or screen reader user that the screen changed, for every screen at once: the document's
 * title names it ("Alice — Stacks Watch"), and the focus moves to its h1, or, come back by Back, to the link that
 * opened the screen left (a row), while it is still there. A page load leaves the focus at the page's start.
 */
export function RouteCues({ route, pathname }: { route: Route; pathname: string }) {
  const naming = useNaming();
  const name = route.screen === 'address' ? naming.party(route.principal) : SCREEN_NAMES[route.screen];
  useEffect(() => {
    document.title = `${name} — ${APP_NAME}`;
  }, [name]);

  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const opener = linkFocusedHere();
    const find = () => {
      const link = opener && withAttribute(document, 'main a', 'href', opener);
      return link || screenHeading();
    };
    // A lazy screen's heading comes with its chunk; a row comes with its list.
    return focusWhen(() => true, find);
  }, [pathname]);
  return null;
}
