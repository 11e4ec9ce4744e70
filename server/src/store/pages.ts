// Keyset pages of a user's rows, newest first, as the list endpoints serve them: `limit` rows after the
// row `startingAfter`, optionally of one status and use case, and whether more follow.
import type { Queryable } from './database.ts';

export interface PageFilter {
  limit: number;
  startingAfter?: string | undefined;
  status?: string | undefined;
  problemId?: string | undefined;
}

export async function page<T>(
  db: Queryable,
  table: 'jobs' | 'data_files',
  columns: string,
  owner: string,
  filter: PageFilter,
): Promise<{ rows: T[]; hasMore: boolean }> {
  const params: unknown[] = [owner, filter.limit + 1];
  let where = 'owner = $1';
  const add = (condition: string, value: unknown) => {
    params.push(value);
    where += ` AND ${condition.replace('?', `$${params.length}`)}`;
  };
  if (filter.startingAfter) add(`seq < (SELECT seq FROM ${table} WHERE owner = $1 AND id = ?)`, filter.startingAfter);
  if (filter.status) add('status = ?', filter.status);
  if (filter.problemId) add('problem_id = ?', filter.problemId);
  const rows = await db.query<T>(`SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY seq DESC LIMIT $2`, params);
  return { rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit };
}
