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
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    if (typeof record['$bigint'] === 'string') return BigInt(record['$bigint']);
    if (Array.isArray(record['$map'])) return new Map(record['$map'] as [unknown, unknown][]);
    if (Array.isArray(record['$set'])) return new Set(record['$set'] as unknown[]);
    return item;
  }) as T;
}
