import { readFileSync } from 'node:fs';

export interface OpsConfig {
  /** Serve Prometheus-style metrics at `/metrics`. */
  readonly metrics: boolean;
  /** Bearer token of the admin routes (the dead-letter list); null: they are off. */
  readonly adminToken: string | null;
  /** A lost vapid.json: start with a new key and delete the devices subscribed with the old one. */
  readonly forgetDevicesWithoutKey: boolean;
}

export const OPS_FLAGS = {
  metrics: { type: 'boolean' },
  'admin-token-file': { type: 'string' },
  'forget-devices-without-key': { type: 'boolean' },
} as const;

export const OPS_USAGE = `  --metrics              RELAY_METRICS=1      serve Prometheus-style metrics at /metrics
  --admin-token-file F   RELAY_ADMIN_TOKEN    token (32+ characters; from a file, or the variable) for the admin routes
                                              (the dead-letter list and its re-drive); without it they are off
  --forget-devices-without-key                vapid.json is lost and cannot be restored: start with a new key and
                                              delete the devices subscribed with the old one`;

const yes = (value: string | undefined): boolean => value === '1' || value === 'true';

/** The operations flags (flag first, then the environment); a bad token is refused with what is expected. */
export function readOpsConfig(
  values: { metrics?: boolean; 'admin-token-file'?: string; 'forget-devices-without-key'?: boolean },
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
    forgetDevicesWithoutKey: values['forget-devices-without-key'] ?? false,
  };
}
