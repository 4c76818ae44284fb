import { schedulerFor } from '../chain/host-schedulers.ts';
import { pacedStartsOf } from './engine/paced-starts.ts';
import { nodeFor, type NodeConfig } from '../chain/networks.ts';
import { StacksRestClient } from '../chain/rest-client.ts';
import { runtimeConfig } from '../chain/page/runtime-config-load.ts';
import type { HostScheduler } from '../chain/scheduler.ts';
import { rangeOf, type ExportJob } from '../domain/history/history.ts';
import { koinlyCsv } from '../domain/history/koinly-csv.ts';
import type { NodeChoices } from '../domain/node-settings.ts';
import { readFailureWords } from '../domain/text/node-trouble.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import { downloadHistory, type DownloadReport } from '../monitor/history-download.ts';
import type { IdbHistoryStore } from '../store/history-store.ts';
import type { TokenCatalog } from '../store/token-catalog.ts';

export interface RunnerDeps {
  readonly store: IdbHistoryStore;
  readonly tokens: TokenCatalog;
  readonly nodeChoices: () => NodeChoices;
  /** The name of an address in the file: its label, else the address. */
  readonly nameOf: (principal: string) => string;
}

export interface RunProgress {
  readonly index: number;
  readonly principal: string;
  readonly report: DownloadReport;
}

/** One address's file. */
export interface CsvFile {
  readonly principal: string;
  readonly name: string;
  readonly csv: string;
  readonly rows: number;
}

export interface RunResult {
  /** One file an address, as a tax tool imports a wallet. */
  readonly files: readonly CsvFile[];
  /** Every address in one file, with a Wallet column. */
  readonly combined: string;
  readonly rows: number;
  /** What the file lacks, one line an address, in the user's words. */
  readonly missing: string[];
}

const clients = new WeakMap<HostScheduler, StacksRestClient>();
/** One client per node, on the node's one pacer (shared with the live engine). */
export function clientFor(node: NodeConfig): StacksRestClient {
  const scheduler = schedulerFor(node, pacedStartsOf(node.url));
  let client = clients.get(scheduler);
  if (!client) clients.set(scheduler, (client = new StacksRestClient(node, scheduler)));
  return client;
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/**
 * Reads each address's history onto the device (what is kept is read again only at its newest end), then builds the
 * file from the device. An address whose node cannot be reached is exported from what is kept, and named as such.
 */
export async function runExport(
  job: ExportJob,
  deps: RunnerDeps,
  signal: AbortSignal,
  onProgress: (progress: RunProgress) => void,
): Promise<RunResult> {
  const config = await runtimeConfig();
  const range = rangeOf(job);
  const sections: { address: { principal: string; name: string }; activities: Activity[] }[] = [];
  const missing: string[] = [];
  for (const [index, { network, principal }] of job.addresses.entries()) {
    const node = nodeFor(network, config, deps.nodeChoices());
    const rest = clientFor(node);
    let unreachable: string | null = null;
    try {
      await downloadHistory({
        rest,
        store: deps.store,
        network,
        principal,
        perMinute: node.limits.perMinute,
        signal,
        notBefore: range.from,
        onProgress: (report) => onProgress({ index, principal, report }),
        onWriteFailure: (error) => console.warn('Could not store a page of history; trying again', error),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      unreachable = readFailureWords(error, node.name, navigator.onLine);
    }
    const progress = await deps.store.progress(network, principal);
    const activities = (await deps.store.chunks(progress)).flat();
    if (!unreachable) await learnTokens(activities, deps.tokens, rest);
    const name = deps.nameOf(principal);
    sections.push({ address: { principal, name }, activities });
    const oldest = activities.at(-1)?.time;
    const reachesBack = progress.complete || (range.from !== null && oldest !== undefined && oldest < range.from);
    if (!reachesBack || unreachable)
      missing.push(
        `${name}: ${progress.kept} transaction${progress.kept === 1 ? '' : 's'} on this device` +
          (progress.nodeTotal !== null ? ` of about ${progress.nodeTotal}` : '') +
          (reachesBack || oldest === undefined ? '' : `, none before ${day(oldest)}`) +
          (unreachable ? `. ${unreachable}, so newer ones may be missing too` : ''),
      );
  }
  const token = (asset: string) => deps.tokens.get(asset);
  const rowsOf = (csv: string) => csv.split('\r\n').length - 2;
  const files = sections.map((section) => {
    const csv = koinlyCsv([section], range, token);
    return { principal: section.address.principal, name: section.address.name, csv, rows: rowsOf(csv) };
  });
  const combined = koinlyCsv(sections, range, token, { wallet: true });
  return { files, combined, rows: rowsOf(combined), missing };
}

/** Names and decimals of the tokens the history moved, where the catalog lacks them (one request a token). */
async function learnTokens(activities: readonly Activity[], tokens: TokenCatalog, rest: StacksRestClient) {
  const contracts = new Set<string>();
  for (const activity of activities)
    for (const movement of activity.movements ?? [])
      if (movement.type === 'ft') contracts.add(movement.assetIdentifier.split('::')[0]!);
  for (const contract of contracts) {
    if (tokens.has(contract)) continue;
    try {
      const metadata = await rest.tokenMetadata(contract);
      if (metadata) await tokens.add(contract, metadata);
    } catch {
      // Offline or unknown to the node: the file gives that token's amounts in base units and says so.
    }
  }
}
