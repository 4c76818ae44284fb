/**
 * Seeded mutations of recorded node answers: what a broken node, a hostile proxy or a truncated connection sends.
 * Each mutation returns the raw body text (a mutation may leave JSON behind) and its name, for the failure message.
 */
export interface Mutant {
  readonly name: string;
  readonly body: string;
}

/** A small seeded generator (mulberry32): the same seed gives the same mutants on every machine. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** Every path to a value inside the document, the root included. */
function paths(value: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, index) => paths(item, [...at, index], out));
  else if (value && typeof value === 'object')
    for (const key of Object.keys(value)) paths(value[key]!, [...at, key], out);
  return out;
}

function replaceAt(root: Json, path: Path, change: (old: Json) => Json | undefined): Json {
  if (path.length === 0) return change(root) ?? null;
  const copy = structuredClone(root) as Record<string | number, Json>;
  let parent: Record<string | number, Json> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  const next = change(parent[last]!);
  if (next === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = next;
  return copy;
}

const HOSTILE_TEXT = [
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '\u202Egnp.exe',
  'S\u200BP\u200D',
  '',
  'x'.repeat(100_000),
  '0x',
  'SP000000000000000000002Q6VF78',
  'NaN',
  '-0',
];
const HUGE_NUMBERS: Json[] = [
  '340282366920938463463374607431768211456',
  '-1',
  '-340282366920938463463374607431768211456',
  '1e400',
  '0.5',
  ' 1',
  1e308,
  -1,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  -0,
  0.5,
];
const WRONG_TYPES: Json[] = [null, true, 0, '', [], {}, 'success', 'abort_by_response', 'pending', 'token_transfer'];

const DEEP = '__deep__';
/** Nesting thousands of levels deep, written as text: building it as an object would overflow the stringifier. */
const deepText = (depth: number) => '{"nested":['.repeat(depth) + '"bottom"' + ']}'.repeat(depth);

/** One mutation of `source`, chosen by `rng`. */
export function mutate(source: Json, rng: () => number): Mutant {
  const text = JSON.stringify(source);
  const choice = rng();
  const target = pick(rng, paths(source));
  const where = target.join('.') || '$';
  const changed = (name: string, change: (old: Json) => Json | undefined): Mutant => ({
    name: `${name} at ${where}`,
    body: JSON.stringify(replaceAt(source, target, change)),
  });
  if (choice < 0.2) return changed('drop', () => undefined);
  if (choice < 0.35) return changed('wrong type', () => pick(rng, WRONG_TYPES));
  if (choice < 0.5) return changed('huge or negative number', () => pick(rng, HUGE_NUMBERS));
  if (choice < 0.6) return changed('hostile text', () => pick(rng, HOSTILE_TEXT));
  if (choice < 0.68) return changed('wrong enum', (old) => (typeof old === 'string' ? `${old}_unknown` : 'unknown'));
  if (choice < 0.76) return { name: 'truncated JSON', body: text.slice(0, Math.floor(rng() * text.length)) };
  if (choice < 0.82) {
    const { name, body } = changed('deep nesting', () => DEEP);
    return { name, body: body.replace(`"${DEEP}"`, deepText(1000 + Math.floor(rng() * 4000))) };
  }
  if (choice < 0.87) return changed('long list', (old) => Array.from({ length: 2000 }, () => old));
  if (choice < 0.897)
    return { name: 'not JSON', body: pick(rng, ['', '<html>502 Bad Gateway</html>', 'null', '[]', '"x"']) };
  if (choice < 0.9)
    return { name: '10 MB body', body: `{"padding":"${'x'.repeat(10 * 1024 * 1024)}",${text.slice(1)}` };
  // Several changes at once.
  let current: Json = source;
  for (let step = 0; step < 3; step++) {
    const at = pick(rng, paths(current));
    current = replaceAt(current, at, () => pick(rng, [...WRONG_TYPES, ...HUGE_NUMBERS, undefined as unknown as Json]));
  }
  return { name: 'three changes', body: JSON.stringify(current) };
}

/** A body parsed as a client does: JSON or a parse failure (which the client reports, as the decoders do). */
export function parse(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

export type { Json };
