// Listings as async iterators over pages, following `starting_after` while `has_more` is true.
import type { Page, Result } from './types.ts';

/**
 * Yields each page's result, from the first (or the one after `startingAfter`); stops after the last page or after a
 * problem (which it yields).
 */
export async function* pages<T extends { id: string }>(
  fetchPage: (startingAfter: string | undefined) => Promise<Result<Page<T>>>,
  startingAfter?: string,
): AsyncGenerator<Result<Page<T>>, void, undefined> {
  let after = startingAfter;
  for (;;) {
    const page = await fetchPage(after);
    yield page;
    if (page.error || !page.data.hasMore) return;
    const last = page.data.items.at(-1);
    if (!last) return;
    after = last.id;
  }
}
