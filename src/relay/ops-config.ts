import { readFileSync } from 'node:fs';

export interface OpsConfig {
  /** Serve Prometheus-style metrics at `/metrics`. */
  readonly metrics: boolean;
  /** Bearer token of the admin routes (the dead-letter list); null: they are off. */
  readonly adminToken: string | null;
  /**
   * A lost vapid.json: start with a new key and delete the devices subscribed with the old one, only if they number
   * exactly this (the count the refusal named), so a flag left in a unit file cannot delete devices a later loss finds.
   */
  readonly forgetDevicesWithoutKey: number | null;
}

export const OPS_FLAGS = {
  metrics: { type: 'boolean' },
  'admin-token-file': { type: 'string' },
  'forget-devices-without-key': { type: 'string' },
} as const;

export const OPS_USAGE = `  --metrics              RELAY_METRICS=1      serve Prometheus-style metrics at /metrics
  --admin-token-file F   RELAY_ADMIN_TOKEN    token (32+ characters; from a file, or the variable) for the admin routes
                                              (the dead-letter list and its re-drive); without it they are off
  --forget-devices-without-key N              vapid.json is lost and cannot be restored: start with a new key and
                                              delete the N devices subscribed with the old one (N: the count the
                                              refusal names; any other count is refused)`;

const yes = (value: string | undefined): boolean => value === '1' || value === 'true';

/** The operations flags (flag first, then the environment); a bad token is refused with what is expected. */
export function readOpsConfig(
  values: { metrics?: boolean; 'admin-token-file'?: string; 'forget-devices-without-key'?: string },
  env: NodeJS.ProcessEnv,
): OpsConfig {
  const file = values['admin-token-file'];
  let token: string | null = env['RELAY_ADMIN_TOKEN'] ?? null;
  if (file) {
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new Error(`the admin token file ${file} cannot be read (${(error as NodeJS.ErrnoException).code})`, {
        cause: error,
      });
    }
  }
  if (token !== null && !/^[\x21-\x7e]{32,256}$/.test(token))
    throw new Error('the admin token must be 32 to 256 printable characters without spaces');
  return {
    metrics: values.metrics ?? yes(env['RELAY_METRICS']),
    adminToken: token,
    forgetDevicesWithoutKey: readDeviceCount(values['forget-devices-without-key']),
  };
}

function readDeviceCount(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d+$/.test(text))
    throw new Error(
      `--forget-devices-without-key takes the number of devices the refusal named (such as --forget-devices-without-key 12), not "${text}"`,
    );
  return Number(text);
}
