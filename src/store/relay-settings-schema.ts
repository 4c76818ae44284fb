import { isDeviceId, isDeviceSecret } from '../domain/relay/relay-device.ts';
import { checkRelayUrl } from '../domain/relay/relay-url.ts';
import type { RelaySettings } from './relay-settings-store.ts';
import { joined, versioned, type Decoded, type Fields } from './settings-schema.ts';

/* The relay's settings record, read as the others are (store/settings-schema.ts), apart so that the first paint does
   not carry the relay's code. */

export const DEFAULT_RELAY_SETTINGS: RelaySettings = { enabled: false, url: null, identity: null, cursor: null };

export function readRelaySettings(raw: unknown): Decoded<RelaySettings> {
  const { fields, damage } = versioned(raw);
  if (!fields) return { value: DEFAULT_RELAY_SETTINGS, damage };
  const problems: string[] = [];
  const rawUrl = fields['url'];
  const url = typeof rawUrl === 'string' ? checkRelayUrl(rawUrl) : null;
  if ((rawUrl !== null && rawUrl !== undefined && !url) || (url && !url.ok)) problems.push('the relay’s address');
  const identity = fields['identity'] as Fields | null | undefined;
  const validIdentity = isDeviceId(identity?.['id']) && isDeviceSecret(identity?.['secret']);
  if (identity !== null && identity !== undefined && !validIdentity) problems.push('this device’s identity');
  const cursor = fields['cursor'];
  if (cursor !== null && cursor !== undefined && typeof cursor !== 'string') problems.push('where the feed stood');
  return {
    value: {
      url: url?.ok ? url.value : null,
      identity: validIdentity ? { id: identity!['id'] as string, secret: identity!['secret'] as string } : null,
      enabled: fields['enabled'] === true && validIdentity,
      cursor: typeof cursor === 'string' ? cursor : null,
    },
    damage: joined(problems),
  };
}
