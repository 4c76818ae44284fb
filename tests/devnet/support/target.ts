import type { ManagerOptions, SocketOptions } from 'socket.io-client';
import type { DevnetNode } from '../../../mocks/devnet/node.ts';

/** Where the contract suite runs: the real server on a port, or the same node behind MSW. */
export interface DevnetTarget {
  readonly url: string;
  readonly node: DevnetNode;
  readonly socketOptions: Partial<ManagerOptions & SocketOptions>;
}

export interface ControlClient {
  post(path: string, body: unknown): Promise<{ status: number; data: Record<string, unknown> }>;
}

export function control(url: string): ControlClient {
  return {
    async post(path, body) {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, data: (await response.json()) as Record<string, unknown> };
    },
  };
}
