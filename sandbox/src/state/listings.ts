// A page of a user's jobs or data files, as a deployment pages them (server/src/store/pages.ts): newest first,
// `limit` after the one `starting_after` names (none after an id the user does not have), optionally of one status
// and use case, and whether more follow.

export interface PageQuery {
  limit: number;
  startingAfter: string | null;
  status: string | null;
  problemId: string | null;
}

/** The contract's default page size. */
export const defaultLimit = 20;

export function pageQuery(query: URLSearchParams): PageQuery {
  const limit = query.get('limit');
  return {
    limit: limit === null ? defaultLimit : Number(limit),
    startingAfter: query.get('starting_after'),
    status: query.get('status'),
    problemId: query.get('problem_id'),
  };
}

/** `records` oldest first (as held), paged newest first; `statusOf` and `problemOf` read what the filters ask. */
export function page<T extends { id: string }>(
  records: Iterable<T>,
  query: PageQuery,
  statusOf: (record: T) => string,
  problemOf: (record: T) => string,
): { rows: T[]; hasMore: boolean } {
  let newest = [...records].reverse();
  if (query.startingAfter !== null) {
    const at = newest.findIndex((r) => r.id === query.startingAfter);
    newest = at < 0 ? [] : newest.slice(at + 1);
  }
  const rows: T[] = [];
  for (const record of newest) {
    if (query.status !== null && statusOf(record) !== query.status) continue;
    if (query.problemId !== null && problemOf(record) !== query.problemId) continue;
    if (rows.length === query.limit) return { rows, hasMore: true };
    rows.push(record);
  }
  return { rows, hasMore: false };
}
