// A read of the database for a scrape, shared by the scrapes that come within `ms` of it: a storm of scrapes (or
// several gauges filled from one query) costs the database one query a second at most.

export function cachedRead<T>(read: () => Promise<T>, ms = 1000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = performance.now();
    if (!last || now - last.at >= ms) {
      const value = read();
      // A failed read is not kept: the next scrape tries again.
      value.catch(() => (last = undefined));
      last = { at: now, value };
    }
    return last.value;
  };
}
