import type { ResumeAnchor } from '../../domain/state/resume-anchor.ts';
import type { TokenMetadata } from '../../domain/state/snapshot.ts';
import type { AnchorPort } from '../../monitor/change-scout.ts';
import type { NamePort, TokenPort } from '../../monitor/ports.ts';
import { keepTrying } from '../../notify/keep-trying.ts';
import { decode, encode } from './codec.ts';
import type { Database } from './sql.ts';
import type { SqlSnapshots } from './sql-snapshots.ts';

/** Facts that never change once learned (token metadata, BNS names), one kind per instance. */
class SqlFacts<T> {
  private readonly known = new Map<string, T>();
  /** How many facts were learned or changed since the start: words built before then may say less. */
  learned = 0;
  constructor(
    private readonly db: Database,
    private readonly kind: string,
  ) {}

  async load(): Promise<void> {
    const rows = await this.db.query<{ key: string; value: string }>('SELECT key, value FROM facts WHERE kind = $1', [
      this.kind,
    ]);
    for (const row of rows) this.known.set(row.key, decode<T>(row.value));
  }

  protected read(key: string): T | undefined {
    return this.known.get(key);
  }

  has(key: string): boolean {
    return this.known.has(key);
  }

  protected async keep(key: string, value: T): Promise<void> {
    if (this.known.get(key) !== value) this.learned += 1;
    this.known.set(key, value);
    // One row, and the resume anchor is among them: on the alert path.
    await this.db
      .within('alert-path')
      .query(
        'INSERT INTO facts (kind, key, value) VALUES ($1, $2, $3) ON CONFLICT (kind, key) DO UPDATE SET value = $3',
        [this.kind, key, encode(value)],
      );
  }
}

export class SqlTokens extends SqlFacts<TokenMetadata> implements TokenPort {
  constructor(db: Database) {
    super(db, 'token');
  }
  get(assetOrContract: string): TokenMetadata | undefined {
    return this.read(assetOrContract.split('::')[0] ?? assetOrContract);
  }
  add(contract: string, metadata: TokenMetadata): Promise<void> {
    return this.keep(contract, metadata);
  }
}

export class SqlNames extends SqlFacts<string> implements NamePort {
  constructor(db: Database) {
    super(db, 'name');
  }
  get(principal: string): string | null | undefined {
    const name = this.read(principal);
    return name === undefined ? undefined : name || null;
  }
  add(principal: string, name: string | null): Promise<void> {
    return this.keep(principal, name ?? '');
  }
}

/**
 * Each followed node's resume anchor (the block every principal was complete up to, monitor/change-scout.ts), kept
 * across restarts so that a restart reads only the principals the chain touched since, not every one. Stored only
 * once every snapshot read before it is stored: an anchor must never be newer than what the table holds.
 */
export class SqlAnchors extends SqlFacts<ResumeAnchor> {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    db: Database,
    private readonly snapshots: SqlSnapshots,
    private readonly report: (problem: string) => void = console.warn,
  ) {
    super(db, 'anchor');
  }

  of(nodeUrl: string): AnchorPort {
    return {
      get: () => this.read(nodeUrl) ?? null,
      set: (anchor) => {
        this.writing = this.writing
          .then(() => this.snapshots.saved())
          .then(() => keepTrying(() => this.keep(nodeUrl, anchor), 'Storing where the node was followed', this.report))
          .catch((error: unknown) =>
            this.report(`Could not store where the node was followed up to: ${String(error)}`),
          );
      },
    };
  }

  /** Resolves once every anchor set so far is stored. */
  saved(): Promise<void> {
    return this.writing;
  }
}
