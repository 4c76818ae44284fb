import { spawn, type ChildProcess } from 'node:child_process';

/** A process a test started from source, with what it wrote to stderr so far. */
export interface StartedProcess {
  readonly child: ChildProcess;
  stderr(): string;
  /** Resolves with its exit code once it has exited (null when a signal ended it). */
  exited(): Promise<number | null>;
  /** Sends `signal` and resolves with its exit code once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export const exitOf = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** The processes one test file starts (`node --import tsx <entry>`, as an operator starts them from source). */
export class ChildProcesses {
  private readonly children: ChildProcess[] = [];

  /** How many were started. */
  get size(): number {
    return this.children.length;
  }

  /** Starts `entry` (a path from the repository's root) with `args`; its stderr is kept, its stdout ignored. */
  start(entry: string, args: readonly string[]): StartedProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return {
      child,
      stderr: () => stderr,
      exited: () => exitOf(child),
      stop: (signal = 'SIGTERM') => {
        const exited = exitOf(child);
        child.kill(signal);
        return exited;
      },
    };
  }

  /** Kills what still runs (a file's afterAll). */
  killAll(): void {
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
