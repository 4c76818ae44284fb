import { isRecord } from '../../domain/is-record.ts';

/**
 * JSON that keeps what the engine's state holds beyond JSON: bigint amounts, Maps and Sets (IndexedDB's structured
 * clone keeps them in the page; the relay writes text).
 */
export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, item: unknown) {
    if (typeof item === 'bigint') return { $bigint: item.toString() };
    if (item instanceof Map) return { $map: [...item] };
    if (item instanceof Set) return { $set: [...item] };
    return item;
  });
}

export function decode<T>(text: string): T {
  return JSON.parse(text, (_key, item: unknown) => {
    if (!isRecord(item)) return item;
    if (typeof item['$bigint'] === 'string') return BigInt(item['$bigint']);
    if (Array.isArray(item['$map'])) return new Map(item['$map'] as [unknown, unknown][]);
    if (Array.isArray(item['$set'])) return new Set(item['$set'] as unknown[]);
    return item;
  }) as T;
}
