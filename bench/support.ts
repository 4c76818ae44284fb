import type { RunningDevnet } from '../mocks/devnet/server.ts';

/** The value below which a share `q` of the values fall (nearest rank). */
export const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN;

/** A call to the devnet's control API. */
export async function control(devnet: RunningDevnet, path: string, body: unknown): Promise<Record<string, string>> {
  const response = await fetch(`${devnet.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return (await response.json()) as Record<string, string>;
}
