/**
 * `npm test`: every check, in stages. The static checks (types, lint, format) run beside the production build; then
 * the vitest projects run beside the browser files, which spend most of their time waiting on a browser and a devnet.
 * Every stage runs to its end even when another failed, so one run tells everything that is wrong. At the end: each
 * stage's wall time and the ten slowest test files, so the budget is visible in every run.
 *
 * `npm test -- --serial` runs the stages one after another (output in order, for reading a failure at leisure).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Stage {
  readonly name: string;
  /** Commands run one after another; the stage fails at the first that fails. */
  readonly commands: readonly (readonly string[])[];
  /** Where the stage's vitest JSON report goes, for the slowest files. */
  readonly report?: string;
}

interface StageResult {
  readonly name: string;
  readonly ok: boolean;
  readonly seconds: number;
}

const reports = mkdtempSync(join(tmpdir(), 'stacks-watch-test-'));
const serial = process.argv.includes('--serial');
const vitestReport = join(reports, 'vitest.json');
const browserReport = join(reports, 'browser.json');
const withJson = (file: string) => ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`];

const PHASES: readonly (readonly Stage[])[] = [
  [
    {
      name: 'typecheck',
      commands: ['app', 'sw', 'engine', 'node'].map((project) => ['tsc', '-p', `tsconfig.${project}.json`]),
    },
    {
      name: 'lint',
      commands: [
        ['eslint', '--max-warnings', '0', '.'],
        ['prettier', '--check', '--log-level', 'warn', '.'],
      ],
    },
    { name: 'build', commands: [['vite', 'build', '--logLevel', 'warn']] },
  ],
  [
    { name: 'vitest', commands: [['vitest', 'run', ...withJson(vitestReport)]], report: vitestReport },
    {
      name: 'browser',
      commands: [['vitest', 'run', '--config', 'vitest.browser.config.ts', ...withJson(browserReport)]],
      report: browserReport,
    },
  ],
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

/** The slowest test files of the vitest reports written, with their wall time. */
function slowestFiles(files: readonly string[], count: number): string[] {
  const timings: { file: string; seconds: number }[] = [];
  for (const file of files) {
    let report: { testResults?: { name: string; startTime: number; endTime: number }[] };
    try {
      report = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    for (const result of report.testResults ?? [])
      timings.push({
        file: result.name.replace(`${process.cwd()}/`, ''),
        seconds: (result.endTime - result.startTime) / 1000,
      });
  }
  return timings
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ file, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${file}`);
}

const started = performance.now();
const results: StageResult[] = [];
for (const phase of PHASES) {
  if (serial) for (const stage of phase) results.push(await runStage(stage, false));
  else results.push(...(await Promise.all(phase.map((stage) => runStage(stage, phase.length > 1)))));
  // The browser files test the build: without one there is nothing to test.
  if (results.some((result) => result.name === 'build' && !result.ok)) break;
}
const total = (performance.now() - started) / 1000;

console.log('\nStages (wall time):');
for (const { name, ok, seconds } of results)
  console.log(`  ${name.padEnd(10)} ${seconds.toFixed(0).padStart(5)} s  ${ok ? 'passed' : 'FAILED'}`);
console.log(`  ${'total'.padEnd(10)} ${total.toFixed(0).padStart(5)} s`);
console.log('\nThe ten slowest test files:');
for (const line of slowestFiles([vitestReport, browserReport], 10)) console.log(line);
rmSync(reports, { recursive: true, force: true });
const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
