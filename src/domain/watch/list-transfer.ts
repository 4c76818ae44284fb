import type { AlertRules } from '../alerts/alert-rules.ts';
import { middleEllipsis } from '../address/middle-ellipsis.ts';
import { isDefaultRules, sameRules } from '../alerts/rules-record.ts';
import type { WatchEntry } from './watch-entry.ts';
import type { WatchList } from './watchlist.ts';

/** One address as it travels to another device: its entry and, when set there, its alert rules. */
export interface TransferItem {
  readonly entry: WatchEntry;
  readonly rules: AlertRules | null;
  /** Written otherwise where it came from (lower case, or O, I or L for a digit): kept in its canonical spelling. */
  readonly respelled?: true;
}

/** Rules set on this device, by the key the alert settings use (`network:principal`). */
export type RulesByKey = Readonly<Record<string, AlertRules>>;

export const rulesKey = (entry: Pick<WatchEntry, 'network' | 'principal'>): string =>
  `${entry.network}:${entry.principal}`;

/**
 * What merging another device's list does here. Nothing on this device is lost: new addresses are added with their
 * labels and rules; an address already watched takes the other device's label only where it has none here, and its
 * rules only where none were set here; where both differ, this device's stay (`kept`, shown in the preview).
 */
export interface MergePlan {
  readonly added: readonly TransferItem[];
  readonly labels: readonly { readonly entry: WatchEntry; readonly label: string }[];
  readonly rules: readonly { readonly entry: WatchEntry; readonly rules: AlertRules }[];
  readonly kept: readonly {
    readonly entry: WatchEntry;
    readonly theirLabel: string | null;
    readonly theirRules: AlertRules | null;
  }[];
  /** Already here exactly as sent, or sent twice. */
  readonly unchanged: number;
}

export function planMerge(list: WatchList, deviceRules: RulesByKey, items: readonly TransferItem[]): MergePlan {
  const here = new Map(list.map((entry) => [entry.principal, entry]));
  const seen = new Set<string>();
  const plan = { added: [], labels: [], rules: [], kept: [], unchanged: 0 } as {
    -readonly [K in keyof MergePlan]: MergePlan[K] extends readonly (infer T)[] ? T[] : MergePlan[K];
  };
  for (const item of items) {
    const { entry } = item;
    if (seen.has(entry.principal)) {
      plan.unchanged++;
      continue;
    }
    seen.add(entry.principal);
    const mine = here.get(entry.principal);
    if (!mine) {
      plan.added.push(item);
      continue;
    }
    const labelTaken = mine.label === '' && entry.label !== '';
    const labelKept = mine.label !== '' && entry.label !== '' && entry.label !== mine.label;
    const myRules = deviceRules[rulesKey(mine)];
    const theirRules = item.rules && !isDefaultRules(item.rules) ? item.rules : null;
    const rulesTaken = !myRules && theirRules !== null;
    const rulesKept = myRules !== undefined && theirRules !== null && !sameRules(myRules, theirRules);
    if (labelTaken) plan.labels.push({ entry: mine, label: entry.label });
    if (rulesTaken) plan.rules.push({ entry: mine, rules: theirRules });
    if (labelKept || rulesKept)
      plan.kept.push({
        entry: mine,
        theirLabel: labelKept ? entry.label : null,
        theirRules: rulesKept ? theirRules : null,
      });
    if (!labelTaken && !rulesTaken && !labelKept && !rulesKept) plan.unchanged++;
  }
  return plan;
}

/** The plan with its new addresses marked as added at `now` (a link carries no dates). */
export const stampAdded = (plan: MergePlan, now: number): MergePlan => ({
  ...plan,
  added: plan.added.map((item) => ({ ...item, entry: { ...item.entry, addedAt: now } })),
});

export const changesNothing = (plan: MergePlan): boolean =>
  plan.added.length === 0 && plan.labels.length === 0 && plan.rules.length === 0;

/** The outcome in a sentence, as the import ("Imported …") and the preview's confirmation ("Added …") say it. */
export function describeMerge(plan: MergePlan, verb: 'Imported' | 'Added'): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  // A list brought back to where it came from (a device's own export): nothing to do, said as such.
  if (changesNothing(plan) && plan.kept.length === 0)
    return plan.unchanged === 1
      ? 'Nothing new: its one address is already here, with the same label and rules.'
      : `Nothing new: all ${plan.unchanged} of its addresses are already here, with the same labels and rules.`;
  const withRules = plan.added.filter((item) => item.rules && !isDefaultRules(item.rules)).length;
  const respelled = plan.added.filter((item) => item.respelled).length;
  const parts = [
    `${verb} ${count(plan.added.length, 'address', 'addresses')}` +
      (withRules === 0
        ? ''
        : withRules === plan.added.length
          ? ' with alert rules'
          : ` (${withRules} with alert rules)`),
    ...(respelled > 0
      ? [
          `${respelled === plan.added.length && respelled > 1 ? 'all' : respelled} saved in capitals with 0 and 1 for ` +
            'any O, I or L, as Stacks addresses are written',
        ]
      : []),
    ...(plan.labels.length > 0 ? [`${count(plan.labels.length, 'label', 'labels')} filled in`] : []),
    ...(plan.rules.length > 0 ? [`alert rules set for ${count(plan.rules.length, 'address', 'addresses')}`] : []),
    ...(plan.kept.length > 0 ? [keptWords(plan.kept.map(({ entry }) => entry))] : []),
    ...(plan.unchanged > 0 ? [`${count(plan.unchanged, 'address', 'addresses')} already here as in it`] : []),
  ];
  return `${parts.join('; ')}.`;
}

/**
 * The addresses whose label or rules stay as on this device where the other list's differ: named, as the list shows
 * them, when a few ("Cold and Savings kept as on this device…"), else counted.
 */
function keptWords(kept: readonly WatchEntry[]): string {
  const why = 'kept as on this device (the other list gives another label or other rules)';
  if (kept.length > 3) return `${kept.length} addresses ${why}`;
  const names = kept.map((entry) => entry.label || middleEllipsis(entry.principal));
  return `${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]} ${why}`;
}
