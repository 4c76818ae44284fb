import { DevnetChain } from './chain.ts';
import { handleControl } from './control.ts';
import { FaultInjector } from './faults.ts';
import { BASE_HEADERS, routeNotFound, type DevnetRequest, type DevnetResponse } from './http-kit.ts';
import { ChainLife } from './life.ts';
import type { Route } from './route.ts';
import { LEGACY_ROUTES } from './routes-legacy.ts';
import { POX_ROUTES } from './routes-pox.ts';
import { STAKING_ROUTES } from './routes-staking.ts';
import { V3_ROUTES } from './routes-v3.ts';

export interface DevnetOptions {
  readonly seed?: string;
  /** Milliseconds between blocks; null mines only on request. */
  readonly blockMs?: number | null;
  /** Generate demo activity between blocks. */
  readonly activity?: boolean;
  readonly now?: () => number;
}

export const DEFAULT_SEED = 'stacks-watch';
const ROUTES: readonly Route[] = [...V3_ROUTES, ...STAKING_ROUTES, ...POX_ROUTES, ...LEGACY_ROUTES];

/** The chain, its life and its faults behind one request handler: what both transports (http, MSW) serve. */
export class DevnetNode {
  readonly chain: DevnetChain;
  readonly life: ChainLife;
  readonly faults = new FaultInjector();
  private readonly disconnectors = new Set<() => void>();
  private readonly observers = new Set<(request: DevnetRequest, response: DevnetResponse, arrivedAt: number) => void>();
  private downUntil = 0;

  constructor(options: DevnetOptions = {}) {
    this.chain = new DevnetChain(options.seed ?? DEFAULT_SEED, options.now);
    this.life = new ChainLife(this.chain, { blockMs: options.blockMs ?? null, activity: options.activity ?? false });
  }

  /** Registers how a transport drops its realtime connections (for the disconnect fault). */
  onDisconnectAll(disconnect: () => void): () => void {
    this.disconnectors.add(disconnect);
    return () => this.disconnectors.delete(disconnect);
  }

  /**
   * A node outage: for `ms` the transports answer nothing but the control API (connections refused, sockets
   * dropped), as when the server is down; the chain goes on. 0 ends it.
   */
  outage(ms: number): number {
    this.downUntil = ms > 0 ? Date.now() + ms : 0;
    if (ms > 0) this.disconnectors.forEach((disconnect) => disconnect());
    return this.downUntil;
  }

  /** Whether a request to `pathname` finds the node down (the control API never is). */
  isDown(pathname = '/'): boolean {
    return Date.now() < this.downUntil && !pathname.startsWith('/devnet/');
  }

  /** Lets tests and benchmarks see every request the node answers, how, and when it arrived (epoch ms). */
  observe(observer: (request: DevnetRequest, response: DevnetResponse, arrivedAt: number) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  async handle(request: DevnetRequest): Promise<DevnetResponse> {
    const arrivedAt = Date.now();
    const response = await this.answer(request);
    this.observers.forEach((observe) => observe(request, response, arrivedAt));
    return response;
  }

  private async answer(request: DevnetRequest): Promise<DevnetResponse> {
    const { pathname } = request.url;
    if (request.method === 'OPTIONS') return preflight(request);
    if (pathname.startsWith('/devnet/')) {
      return handleControl(
        {
          chain: this.chain,
          life: this.life,
          faults: this.faults,
          disconnectAll: () => this.disconnectors.forEach((disconnect) => disconnect()),
          outage: (ms) => this.outage(ms),
        },
        request,
      );
    }
    // No latency set: answered in the same turn, as before the latency fault could be lowered.
    if (this.faults.faults.latencyMs > 0) await this.faults.heldFor(Date.now());
    const limited = this.faults.rateLimited();
    if (limited) return limited;
    return this.faults.corrupt(pathname, await this.route(request));
  }

  private async route(request: DevnetRequest): Promise<DevnetResponse> {
    for (const route of ROUTES) {
      const match = route.pattern.exec(request.url.pathname);
      if (!match || route.method !== request.method) continue;
      if (route.v3 && this.faults.faults.oldNode) break;
      return route.handle(request, match.slice(1).map(decodeURIComponent), this.chain);
    }
    return routeNotFound(request);
  }

  close(): void {
    this.life.stop();
  }
}

function preflight(request: DevnetRequest): DevnetResponse {
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': BASE_HEADERS['access-control-allow-origin'],
      'access-control-expose-headers': BASE_HEADERS['access-control-expose-headers'],
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
      vary: 'Access-Control-Request-Headers',
    },
    body: '',
  };
}
