// The embedded database's stand-in for autovacuum (PGlite runs none): VACUUM and ANALYZE a table once enough of
// its rows changed, with PostgreSQL's own default thresholds. Running them on a timer whatever changed cost a
// pause of the one connection that grew with the store: ANALYZE of jobs and executions at 100,000 rows each took
// 1–3 s, every 5 s, and every request waited behind it (issue 15, "flat as the store grows").
import type { Database } from './database.ts';

/** autovacuum_{analyze,vacuum,vacuum_insert}_{threshold,scale_factor}: a base number of rows and a fraction of the table. */
const after = {
  analyze: { base: 50, fraction: 0.1 },
  vacuum: { base: 50, fraction: 0.2 },
  vacuumInserts: { base: 1000, fraction: 0.2 },
};

const over = (rows: number, live: number, { base, fraction }: { base: number; fraction: number }) =>
  rows > base + fraction * live;

/**
 * VACUUMs and ANALYZEs those of `tables` that need it, from the counts of changes in pg_stat_user_tables (kept in
 * memory: they start from zero at each start) and the table's size as the last VACUUM or ANALYZE left it in
 * pg_class (kept on disk). Answers the statements it ran.
 */
export async function maintainTables(db: Database, tables: string[]): Promise<string[]> {
  const stats = await db.query<{ table: string; live: number; dead: number; modified: number; inserted: number }>(
    `SELECT s.relname AS table, greatest(s.n_live_tup, c.reltuples)::float8 AS live, s.n_dead_tup::float8 AS dead,
            s.n_mod_since_analyze::float8 AS modified, s.n_ins_since_vacuum::float8 AS inserted
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname = current_schema() AND s.relname = ANY($1)`,
    [tables],
  );
  const ran: string[] = [];
  for (const { table, live, dead, modified, inserted } of stats) {
    const vacuum = over(dead, live, after.vacuum) || over(inserted, live, after.vacuumInserts);
    const analyze = over(modified, live, after.analyze);
    if (!vacuum && !analyze) continue;
    const sql = `${[vacuum && 'VACUUM', analyze && 'ANALYZE'].filter(Boolean).join(' ')} "${table}"`;
    await db.query(sql);
    ran.push(sql);
  }
  return ran;
}
