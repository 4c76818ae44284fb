/**
 * `npm test`: every check, in stages one after another: the static checks (types, lint, format), the production
 * build, the vitest projects, the relay's files (two at a time, each starts databases and relays of its own), then the
 * browser files (three at a time). One stage at a time because stages beside each other fight for two cores and for a
 * page cache that keeps little, and each lost far more than it overlapped. Measured on a two-core machine: every
 * stage at once took 1,783 s (typecheck, 39 s alone, took 937 s; the vitest projects, 107 s alone, 1,441 s); the
 * browser files beside the rest one after another, 335 s for typecheck and 359 s for lint (given up); one after
 * another, 1,483 s. Even the two single-threaded ones (typecheck beside lint and format) gained little quiet (50 s
 * against 31 + 30 s) and lost beside two busy loops (140 s against 113 s). Every stage runs to its end even when
 * another failed, so one run tells everything that is wrong.
 * At the end: each stage's wall time and the ten slowest test files, so the budget is visible in every run, then
 * every test that failed with the start of its message, so the last lines of a run say what went wrong.
 *
 * `npm test -- --together` starts every stage at once (each as soon as what it needs is there), for a machine with
 * cores and memory to spare; the output lines then carry their stage's name. `npm test -- --record-seconds` merges
 * the relay's and browser's file times into tests/file-seconds.json, the order the next runs start them in (only
 * from a run whose stages all passed, one after another).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Stage {
  readonly name: string;
  /** Commands run one after another; the stage fails at the first that fails. */
  readonly commands: readonly (readonly string[])[];
  /** The stage that must have passed first. */
  readonly after?: string;
}

interface StageResult {
  readonly name: string;
  readonly ok: boolean;
  readonly seconds: number;
  /** Not run: the stage it needs failed. */
  readonly skipped?: boolean;
}

const reports = mkdtempSync(join(tmpdir(), 'stacks-watch-test-'));
const together = process.argv.includes('--together');
const reportOf = (stage: string) => join(reports, `${stage}.json`);
const vitest = (stage: string, ...args: string[]) => [
  'vitest',
  'run',
  ...args,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportOf(stage)}`,
];

const STAGES: readonly Stage[] = [
  {
    name: 'typecheck',
    commands: ['app', 'sw', 'engine', 'node'].map((project) => ['tsc', '-p', `tsconfig.${project}.json`]),
  },
  { name: 'build', commands: [['vite', 'build', '--logLevel', 'warn']] },
  {
    name: 'lint',
    commands: [
      ['eslint', '--max-warnings', '0', '.'],
      ['prettier', '--check', '--log-level', 'warn', '.'],
    ],
  },
  {
    name: 'vitest',
    commands: [vitest('vitest', ...['unit', 'devnet', 'monitor', 'integration'].flatMap((p) => ['--project', p]))],
  },
  { name: 'relay', commands: [vitest('relay', '--project', 'relay')] },
  {
    name: 'browser',
    after: 'build',
    commands: [vitest('browser', '--config', 'vitest.browser.config.ts')],
  },
];

/** Runs a command from node_modules/.bin, its lines prefixed with the stage's name when stages run side by side. */
function run(stage: string, command: readonly string[], prefixed: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `node_modules/.bin:${process.env['PATH'] ?? ''}`, FORCE_COLOR: '0' },
    });
    const relay = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) out.write(prefixed ? `[${stage}] ${line}\n` : `${line}\n`);
      });
      stream.on('end', () => {
        if (partial) out.write(prefixed ? `[${stage}] ${partial}\n` : `${partial}\n`);
      });
    };
    relay(child.stdout!, process.stdout);
    relay(child.stderr!, process.stderr);
    child.on('error', (error) => {
      process.stderr.write(`[${stage}] could not start ${command[0]}: ${error.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

async function runStage(stage: Stage, prefixed: boolean): Promise<StageResult> {
  const started = performance.now();
  let ok = true;
  for (const command of stage.commands) {
    if (!(await run(stage.name, command, prefixed))) {
      ok = false;
      break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`── ${stage.name}: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s\n`);
  return { name: stage.name, ok, seconds };
}

/**
 * Every stage, each once the one before it has ended (with --together, each at once), whether or not it passed; one
 * whose `after` failed is reported as not run.
 */
async function runAll(): Promise<StageResult[]> {
  const results = new Map<string, Promise<StageResult>>();
  let previous: Promise<unknown> = Promise.resolve();
  for (const stage of STAGES) {
    const need = stage.after ? results.get(stage.after)! : Promise.resolve({ ok: true });
    const result = (together ? need : previous).then(async () => {
      if (!(await need).ok) return { name: stage.name, ok: false, seconds: 0, skipped: true };
      return runStage(stage, together);
    });
    previous = result;
    results.set(stage.name, result);
  }
  return Promise.all(results.values());
}

/** What vitest's JSON reporter writes, as far as it is read here. */
interface FileReport {
  readonly name: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly status?: string;
  readonly message?: string;
  readonly assertionResults?: readonly {
    readonly fullName: string;
    readonly status: string;
    readonly duration?: number | null;
    readonly failureMessages?: readonly string[];
  }[];
}

/** The file reports of the vitest reports written (a stage that did not write one has none). */
function fileReports(files: readonly string[]): FileReport[] {
  return files.flatMap((file) => {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { testResults?: FileReport[] }).testResults ?? [];
    } catch {
      return [];
    }
  });
}

const relative = (file: string) => file.replace(`${process.cwd()}/`, '');

/** The slowest test files, with their wall time. */
function slowestFiles(reports: readonly FileReport[], count: number): string[] {
  const timings = reports.map((result) => ({
    file: relative(result.name),
    seconds: (result.endTime - result.startTime) / 1000,
  }));
  return timings
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ file, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${file}`);
}

/**
 * Every failed test (or file that failed outside its tests), with its time and the start of what it said: the message
 * and the first frames in the project's own files (a timeout has no message of its own in the JSON report).
 */
function failures(reports: readonly FileReport[]): string[] {
  const head = (message: string) => {
    const lines = message.split('\n').filter((line) => line.trim() !== '');
    const frame = (line: string) => /^\s+at /.test(line);
    const said = lines.filter((line) => !frame(line)).slice(0, 4);
    const ours = lines.filter((line) => frame(line) && !line.includes('node_modules')).slice(0, 2);
    const timedOut = 'Error: timed out (or failed without a message)';
    return [...said, ...ours].map((line) =>
      `      ${relative(line.replace('Error: STACK_TRACE_ERROR', timedOut).trim())}`.slice(0, 300),
    );
  };
  return reports.flatMap((result) => {
    const failed = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (failed.length === 0)
      return result.status === 'failed' ? [`  ${relative(result.name)}`, ...head(result.message ?? '')] : [];
    return failed.flatMap((test) => [
      `  ${relative(result.name)} > ${test.fullName} (${((test.duration ?? 0) / 1000).toFixed(0)} s)`,
      ...head(test.failureMessages?.join('\n') ?? ''),
    ]);
  });
}

/**
 * `--record-seconds`: the relay's and the browser's file times of this run, merged into tests/file-seconds.json,
 * which orders the files of the next runs longest first (tests/support/longest-first.ts). Only from a run whose every
 * stage passed one after another (a failed or crowded run's times would misorder them); run it on quiet cores.
 */
function recordSeconds(stages: readonly StageResult[]): void {
  if (together || stages.some((stage) => !stage.ok)) {
    console.log('\nNot recording file seconds: only a run whose stages all passed, one after another, is recorded.');
    return;
  }
  const table = 'tests/file-seconds.json';
  // Files since deleted or renamed drop out.
  const kept = Object.fromEntries(
    Object.entries(JSON.parse(readFileSync(table, 'utf8')) as Record<string, number>).filter(([file]) =>
      existsSync(file),
    ),
  );
  for (const result of fileReports(['relay', 'browser'].map(reportOf)))
    kept[relative(result.name)] = Math.round((result.endTime - result.startTime) / 1000);
  const seconds = Object.entries(kept).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  writeFileSync(table, `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
  console.log(`\nRecorded the seconds of the relay and browser files in ${table}.`);
}

const started = performance.now();
const results = await runAll();
const total = (performance.now() - started) / 1000;

console.log('\nStages (wall time):');
for (const { name, ok, seconds, skipped } of results)
  console.log(
    `  ${name.padEnd(10)} ${seconds.toFixed(0).padStart(5)} s  ${skipped ? 'not run' : ok ? 'passed' : 'FAILED'}`,
  );
console.log(`  ${'total'.padEnd(10)} ${total.toFixed(0).padStart(5)} s`);
const written = fileReports(STAGES.map((stage) => reportOf(stage.name)));
console.log('\nThe ten slowest test files:');
for (const line of slowestFiles(written, 10)) console.log(line);
if (process.argv.includes('--record-seconds')) recordSeconds(results);
rmSync(reports, { recursive: true, force: true });
const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) {
  const tests = failures(written);
  if (tests.length > 0) console.error(`\nThe tests that failed:\n${tests.join('\n')}`);
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
