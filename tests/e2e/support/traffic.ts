import type { BrowserContext, Page } from 'playwright-core';

/** One thing the browser sent: an HTTP request (its URL and body) or a WebSocket frame (its socket's URL). */
export interface Sent {
  readonly kind: 'http' | 'websocket' | 'frame';
  readonly url: string;
  /** The host (`name:port`) it went to. */
  readonly host: string;
  /** Everything a host could read in it, decoded: URL, body, frame. */
  readonly text: string;
  /** Sent by the service worker rather than a page. */
  readonly fromServiceWorker: boolean;
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Records every request the pages and service workers of a context make, and every WebSocket frame a page sends,
 * as the browser reports them (Playwright's network events): the independent truth the privacy screen is checked
 * against.
 */
export function recordTraffic(context: BrowserContext): { sent: Sent[]; watch(page: Page): void } {
  const sent: Sent[] = [];
  context.on('request', (request) => {
    const url = request.url();
    if (!/^https?:/.test(url)) return;
    sent.push({
      kind: 'http',
      url,
      host: new URL(url).host,
      text: `${decode(url)}\n${request.postData() ?? ''}`,
      fromServiceWorker: request.serviceWorker() !== null,
    });
  });
  return {
    sent,
    watch(page) {
      page.on('websocket', (socket) => {
        const url = socket.url();
        const host = new URL(url).host;
        sent.push({ kind: 'websocket', url, host, text: decode(url), fromServiceWorker: false });
        socket.on('framesent', ({ payload }) =>
          sent.push({ kind: 'frame', url, host, text: String(payload), fromServiceWorker: false }),
        );
      });
    },
  };
}
