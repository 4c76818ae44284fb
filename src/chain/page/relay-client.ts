import { readUnwatched, type DeviceRegistration, type UnwatchedAddress } from '../../domain/relay/relay-device.ts';
import { decodeAlertsPage, type RelayAlertsPage } from '../../domain/relay/relay-message.ts';
import { platformFetch, sendRequest } from '../outbound.ts';

/** A relay request that failed: what went wrong in words a user can act on, and the HTTP status if one came back. */
export class RelayError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'RelayError';
  }
}

export interface RelayDevice {
  readonly id: string;
  readonly secret: string;
}

const TIMEOUT_MS = 15_000;

/** Talks to one relay (the HTTP contract in the relay's docs): device registration and the alerts feed. */
export class RelayClient {
  constructor(
    readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch = platformFetch,
  ) {}

  async vapidPublicKey(): Promise<string> {
    const body = await this.request('GET', '/v1/vapid-public-key');
    const key = (body as { publicKey?: unknown } | null)?.publicKey;
    if (typeof key !== 'string' || key.length === 0)
      throw new RelayError('The relay answered without its push key (“publicKey”); is this address a relay?');
    return key;
  }

  /**
   * Creates or replaces the device's subscription and watch list; resolves with the relay's newest cursor and the
   * addresses it does not watch (a network it follows no node for), with why.
   */
  async putDevice(
    device: RelayDevice,
    registration: DeviceRegistration,
  ): Promise<{ cursor: string; unwatched: UnwatchedAddress[] }> {
    const body = (await this.request('PUT', devicePath(device), device.secret, registration)) as {
      cursor?: unknown;
      unwatched?: unknown;
    } | null;
    const cursor = body?.cursor;
    return { cursor: typeof cursor === 'string' ? cursor : '0', unwatched: readUnwatched(body?.unwatched) };
  }

  async deleteDevice(device: RelayDevice): Promise<void> {
    await this.request('DELETE', devicePath(device), device.secret);
  }

  async alertsAfter(device: RelayDevice, cursor: string | null): Promise<RelayAlertsPage> {
    const query = cursor === null ? '' : `?after=${encodeURIComponent(cursor)}`;
    const page = decodeAlertsPage(await this.request('GET', `${devicePath(device)}/alerts${query}`, device.secret));
    if (!page.ok) throw new RelayError(`The relay’s alerts could not be read: ${page.error}.`);
    return page.value;
  }

  private async request(method: string, path: string, secret?: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (secret) headers['authorization'] = `Bearer ${secret}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await sendRequest(
        'relay',
        `${this.baseUrl}${path}`,
        {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          cache: 'no-store',
        },
        this.fetchImpl,
      );
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new RelayError(
        timedOut
          ? `The relay at ${this.baseUrl} did not answer within ${TIMEOUT_MS / 1000} s.`
          : `The relay at ${this.baseUrl} could not be reached (offline, wrong address, or it does not allow this app).`,
      );
    }
    if (response.status === 204) return null;
    const data: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw new RelayError(failureText(response.status, data), response.status);
    if (data === undefined)
      throw new RelayError(`The relay answered ${method} ${path} with something other than JSON.`);
    return data;
  }
}

const devicePath = (device: RelayDevice): string => `/v1/devices/${encodeURIComponent(device.id)}`;

function failureText(status: number, data: unknown): string {
  const message = (data as { message?: unknown } | null | undefined)?.message;
  const said = typeof message === 'string' && message ? ` It said: ${message.slice(0, 300)}` : '';
  if (status === 401) return `The relay does not recognise this device’s secret (401).${said}`;
  if (status === 429) return `The relay is busy and asked to try again later (429).${said}`;
  if (status >= 500) return `The relay failed (${status}): it may be down or restarting.${said}`;
  return `The relay refused the request (${status}).${said}`;
}
