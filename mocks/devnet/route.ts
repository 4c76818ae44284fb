import type { DevnetChain } from './chain.ts';
import type { DevnetRequest, DevnetResponse } from './http-kit.ts';

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly pattern: RegExp;
  /** Set on the v3 routes: an older node answers 404 there. */
  readonly v3?: boolean;
  handle(
    request: DevnetRequest,
    params: readonly string[],
    chain: DevnetChain,
  ): DevnetResponse | Promise<DevnetResponse>;
}
