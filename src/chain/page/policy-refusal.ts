import type { NodeTrouble } from '../../domain/node-network.ts';
import { POLICY_KEEPER } from '../../domain/node-policy.ts';

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

/**
 * What Settings says then: in plain words, that the app may not contact the node and what to do; in `detail`, for
 * whoever runs the server that serves the app, the policy's directive and the setting that allows the node.
 */
export function policyRefusal(url: string): NodeTrouble {
  const origin = new URL(url).origin;
  return {
    blocked: true,
    message:
      `This app’s security policy does not allow it to contact ${origin}, so the browser blocked the request. ` +
      `Use the default node, or ask ${POLICY_KEEPER} to allow this one.`,
    detail:
      `For that server: its Content-Security-Policy (connect-src) does not list ${origin}; ` +
      `the setting STACKS_WATCH_CONNECT_SRC="${origin}" (--connect-src) allows it.`,
  };
}
