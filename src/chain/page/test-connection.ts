import type { NodeTrouble } from '../../domain/node-network.ts';
import { err, ok, type Result } from '../../domain/result.ts';
import { decodeStatus } from '../decode.ts';
import { platformFetch } from '../outbound.ts';
import { askNode } from './ask-node.ts';

/** Reads `/extended` from a node the user entered: is it there, and is it a Stacks Blockchain API? */
export async function testConnection(
  url: string,
  apiKey: string | null,
  fetchImpl: typeof fetch = platformFetch,
): Promise<Result<{ height: number; version: string }, NodeTrouble>> {
  const asked = await askNode(url, '/extended', apiKey, fetchImpl);
  if (!asked.ok) return asked;
  const response = asked.value;
  if (response.status === 401 || response.status === 403)
    return err({ message: `${url} refused the request (${response.status}): check the API key.` });
  if (!response.ok)
    return err({
      message: `${url} answered ${response.status} for /extended: it does not look like a Stacks Blockchain API node.`,
    });
  try {
    const body: unknown = await response.json();
    const { height } = decodeStatus(body);
    const version = String((body as { server_version?: unknown }).server_version ?? 'unknown version');
    return ok({ height, version });
  } catch {
    return err({
      message: `${url} answered, but not like a Stacks Blockchain API node (its /extended has no chain tip).`,
    });
  }
}
