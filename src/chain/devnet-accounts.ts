import { parsePrincipal, type Principal } from '../domain/address/address.ts';
import { err, ok, type Result } from '../domain/result.ts';
import { platformFetch, sendRequest } from './outbound.ts';

export interface DemoAccount {
  readonly principal: Principal;
  readonly label: string;
}

/** The devnet's demo accounts (its control API, not part of the Stacks API), each checked as a testnet principal. */
export async function fetchDemoAccounts(
  devnetUrl: string,
  fetchImpl: typeof fetch = platformFetch,
): Promise<Result<DemoAccount[], string>> {
  let data: unknown;
  try {
    const response = await sendRequest('devnet', `${devnetUrl}/devnet/accounts`, undefined, fetchImpl);
    if (!response.ok) return err(`the devnet answered ${response.status}`);
    data = await response.json();
  } catch {
    return err(`the devnet at ${devnetUrl} cannot be reached`);
  }
  if (!Array.isArray(data)) return err('the devnet’s account list is not a list');
  const accounts: DemoAccount[] = [];
  for (const item of data as unknown[]) {
    const record = (item ?? {}) as Record<string, unknown>;
    const principal = parsePrincipal(String(record['address'] ?? ''), { network: 'testnet' });
    const label = typeof record['label'] === 'string' ? record['label'].slice(0, 64) : '';
    if (!principal.ok) return err(`the devnet listed an invalid account: ${String(record['address'])}`);
    accounts.push({ principal: principal.value, label });
  }
  return ok(accounts);
}
