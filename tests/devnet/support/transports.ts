import { WebSocket as BrowserWebSocketTransport } from 'engine.io-client';

/**
 * Engine.IO's browser WebSocket transport, opening `globalThis.WebSocket` when it connects rather than when the
 * module loads: under MSW that global is the interceptor, so the realtime feed reaches the mocked devnet.
 */
export class GlobalWebSocketTransport extends BrowserWebSocketTransport {
  override createSocket(uri: string, protocols: string | string[] | undefined): WebSocket {
    return new globalThis.WebSocket(uri, protocols);
  }
}
