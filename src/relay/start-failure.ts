/**
 * A start that cannot succeed until the operator changes something (a file, a permission, a setting): said in one
 * line and answered with exit 2, which the systemd unit does not restart (`RestartPreventExitStatus=2`).
 */
export class StartRefusal extends Error {}

export interface StartFailure {
  /** One line for the log, naming the setting or the file to look at; no stack. */
  readonly line: string;
  /** 2: refused until something is changed; 1: may pass on a later try (a port still held, a database starting). */
  readonly exitCode: 1 | 2;
}

const DATA_DIR = 'the data directory (--data-dir, RELAY_DATA_DIR) must be writable by the user the server runs as';

/** What a failed start says, and whether a supervisor should try again. */
export function startFailure(error: unknown): StartFailure {
  if (error instanceof StartRefusal) return { line: error.message, exitCode: 2 };
  const message = error instanceof Error ? error.message : String(error);
  const failure = (error ?? {}) as Partial<NodeJS.ErrnoException & { address: string; port: number }>;
  const where = failure.address === undefined ? '' : `${failure.address}:${failure.port ?? ''}`;
  switch (failure.code) {
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      if (failure.syscall === 'listen' || failure.syscall === 'bind')
        return { line: `may not listen on ${where} (${failure.code}): choose a port from 1024 up`, exitCode: 2 };
      return { line: `cannot write ${failure.path ?? 'a file'} (${failure.code}): ${DATA_DIR}`, exitCode: 2 };
    case 'ENOTDIR':
      return { line: `${failure.path ?? 'a path'} is not a directory (ENOTDIR): ${DATA_DIR}`, exitCode: 2 };
    case 'EADDRINUSE':
      return {
        line: `${where} is in use by another process (EADDRINUSE): stop it or choose another port`,
        exitCode: 1,
      };
    case 'EADDRNOTAVAIL':
      return { line: `${where} is not an address of this machine (EADDRNOTAVAIL): check the host`, exitCode: 2 };
  }
  // PostgreSQL's own refusals (SQLSTATE classes 28: authorization, 3D: no such database) stay until changed.
  if (typeof failure.code === 'string' && /^(28|3D)/.test(failure.code) && 'severity' in (error as object))
    return { line: `PostgreSQL refused the connection: ${message} (check --database-url, DATABASE_URL)`, exitCode: 2 };
  return { line: message, exitCode: 1 };
}
