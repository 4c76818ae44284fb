import type { Purpose } from './disclosure.ts';
import type { HostRecord } from './disclosure-record.ts';
import { NETWORK_LABEL, type Network } from '../network.ts';

/** What a host is to the app now: one network's node (or both's), the relay, or something used before. */
export type HostRole =
  | { readonly kind: 'node'; readonly networks: readonly Network[]; readonly name: string }
  | { readonly kind: 'relay' }
  | { readonly kind: 'tested' }
  | { readonly kind: 'former-node' }
  | { readonly kind: 'former-relay' };

/** The hosts the app is set to use now, by origin. */
export interface CurrentHosts {
  readonly nodes: readonly { readonly network: Network; readonly origin: string; readonly name: string }[];
  readonly relay: string | null;
}

export function hostRole(record: HostRecord, current: CurrentHosts): HostRole {
  const nodes = current.nodes.filter((node) => node.origin === record.origin);
  if (nodes.length > 0) return { kind: 'node', networks: nodes.map((node) => node.network), name: nodes[0]!.name };
  if (current.relay === record.origin) return { kind: 'relay' };
  if (record.purposes.includes('relay')) return { kind: 'former-relay' };
  if (record.purposes.every((purpose) => purpose === 'test')) return { kind: 'tested' };
  return { kind: 'former-node' };
}

const RANK: Record<HostRole['kind'], number> = { node: 0, relay: 1, 'former-node': 2, 'former-relay': 3, tested: 4 };

/** The hosts in use first (nodes, then the relay), then those used before; unknown roles (settings unread) last. */
export const roleRank = (role: HostRole | null): number => (role ? RANK[role.kind] : 5);

export function roleTitle(role: HostRole): string {
  switch (role.kind) {
    case 'node':
      return `${role.networks.map((network) => NETWORK_LABEL[network]).join(' and ')} node · ${role.name}`;
    case 'relay':
      return 'Relay for alerts when the app is closed';
    case 'tested':
      return 'A node you tested in Settings';
    case 'former-node':
      return 'A node this app used before';
    case 'former-relay':
      return 'A relay this app used before';
  }
}

const count = (n: number, one: string, many: string): string => (n === 1 ? `this ${one}` : `these ${n} ${many}`);

/** The one sentence that says what the host could learn: "The node at X was asked about these 3 addresses; …". */
export function whatItLearned(host: string, role: HostRole, addresses: number): string {
  const what = addresses === 0 ? null : count(addresses, 'address', 'addresses');
  const sees = 'it also sees your IP address and when the app is open';
  switch (role.kind) {
    case 'relay':
    case 'former-relay':
      return what
        ? `The relay at ${host} was sent ${what}, with their alert rules and this browser’s push address; ${sees}.`
        : `The relay at ${host} was sent none of your addresses; it sees your IP address.`;
    case 'tested':
      return what
        ? `${host} was contacted to test a connection and told ${what}; it also sees your IP address.`
        : `${host} was contacted to test a connection and told none of your addresses; it sees your IP address.`;
    default:
      return what
        ? `The node at ${host} was asked about ${what}; ${sees}.`
        : `The node at ${host} was asked about none of your addresses; it sees your IP address and when the app is open.`;
  }
}

const PURPOSE_TEXT: Record<Purpose, string> = {
  chain: 'balances and activity',
  live: 'live updates (a socket naming each address it follows)',
  tokens: 'token names and decimals',
  names: 'BNS names',
  test: 'a connection test',
  relay: 'alerts when the app is closed',
  devnet: 'the demo accounts',
  app: 'the app’s own files',
};

/** "Used for balances and activity, live updates …". */
export const purposesText = (purposes: readonly Purpose[]): string =>
  purposes.length === 0 ? '' : `Used for ${purposes.map((purpose) => PURPOSE_TEXT[purpose]).join(', ')}.`;

export const timesText = (n: number): string => (n === 1 ? 'once' : `${n.toLocaleString('en-US')} times`);

/** For a host every request to which went unanswered: nothing reached it, so it learned nothing. */
export const neverReachedText = (host: string): string =>
  `The app tried ${host} but never reached it: it learned nothing from this app, not even your IP address.`;
