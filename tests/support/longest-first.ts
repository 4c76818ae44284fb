import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each relay and browser file took in a quiet `npm test` on a two-core machine (`tests/file-seconds.json`,
 * written by `npm test -- --record-seconds`). Only their order matters: a table a few runs old still starts the long
 * files first.
 */
const SECONDS = JSON.parse(readFileSync(new URL('../file-seconds.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

/**
 * Starts the longest files first, then shorter ones as workers free up, so that a stage does not end on one long file
 * alone while the other workers idle. Vitest orders by its cache of the last run's durations, which a clean clone does
 * not have (it then starts the largest files first): in a quiet run the browser stage's 110 s benchmark file, small
 * on disk, started last and ran alone for its last 90 s. A file not in the table runs first, as vitest runs one it does
 * not know, in case it is long; the rest keep vitest's order (projects, then what it knows).
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = await super.sort(files);
    const seconds = (file: TestSpecification) =>
      SECONDS[relative(file.project.config.root, file.moduleId)] ?? Number.POSITIVE_INFINITY;
    return known
      .map((file, order) => ({ file, order }))
      .sort((a, b) => {
        if (a.file.project.name !== b.file.project.name) return a.order - b.order;
        return seconds(b.file) - seconds(a.file) || a.order - b.order;
      })
      .map(({ file }) => file);
  }
}
