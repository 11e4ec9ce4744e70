// A least-recently-used cache bounded both by entries and by bytes, for every cache the server keeps in memory:
// a count alone does not bound memory when one entry may be a few bytes or a few megabytes (a job's output).

export interface BoundedCache<K, V> {
  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined;
  /** Keeps the value, evicting the least recently used past either bound; a value larger than the whole budget is not kept. */
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
  /** The estimated bytes held (the sum of `sizeOf` over the entries). */
  readonly bytes: number;
}

export interface CacheBounds<K, V> {
  maxEntries: number;
  maxBytes: number;
  /** An estimate of what an entry holds in memory, in bytes (computed once, when it is set). */
  sizeOf(key: K, value: V): number;
}

export function boundedCache<K, V>({ maxEntries, maxBytes, sizeOf }: CacheBounds<K, V>): BoundedCache<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<K, { value: V; bytes: number }>();
  let bytes = 0;
  // The most recently used key: using it again moves nothing (a Map's delete and set cost a cached GET more than
  // its three caches' other work; a client polling one job asks for the same keys over and over).
  let newest: K | undefined;
  const remove = (key: K) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (key !== newest) {
        entries.delete(key);
        entries.set(key, entry);
        newest = key;
      }
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const size = sizeOf(key, value);
      if (size > maxBytes) return;
      while (entries.size > 0 && (entries.size >= maxEntries || bytes + size > maxBytes))
        remove(entries.keys().next().value!);
      entries.set(key, { value, bytes: size });
      newest = key;
      bytes += size;
    },
    delete: remove,
    clear() {
      entries.clear();
      bytes = 0;
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
