/**
 * Whether the page's Content Security Policy (its connect-src) is what refused a request to an origin. The browser
 * fails such a fetch exactly like an unreachable host, and tells the page only through a
 * `securitypolicyviolation` event, queued as a task of its own: it may land just after the fetch has failed.
 */
export interface PolicyWatch {
  /** After the request failed: true when the policy refused `url`'s origin (waits briefly for the event). */
  refused(): Promise<boolean>;
  stop(): void;
}

const GRACE_MS = 300;

export function watchPolicyRefusal(url: string): PolicyWatch {
  const target = globalThis as Partial<EventTarget>;
  const origin = new URL(url).origin;
  let hit = false;
  let wake: (() => void) | null = null;
  const listener = (event: Event) => {
    const violation = event as SecurityPolicyViolationEvent;
    if (violation.effectiveDirective !== 'connect-src') return;
    try {
      if (new URL(violation.blockedURI).origin !== origin) return;
    } catch {
      return;
    }
    hit = true;
    wake?.();
  };
  target.addEventListener?.('securitypolicyviolation', listener);
  const stop = () => target.removeEventListener?.('securitypolicyviolation', listener);
  return {
    async refused() {
      if (!hit && target.addEventListener)
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, GRACE_MS);
        });
      stop();
      return hit;
    },
    stop,
  };
}

/** What Test connection says then: the policy, and the setting of the server hosting the app that changes it. */
export const policyRefusalMessage = (url: string): string =>
  `This app's Content Security Policy does not allow ${new URL(url).origin}, so the browser refused to contact it. ` +
  `Whoever serves the app allows it with the setting STACKS_WATCH_CONNECT_SRC="${new URL(url).origin}" ` +
  `(--connect-src) on its server.`;
