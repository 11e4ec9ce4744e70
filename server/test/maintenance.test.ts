// The embedded database's maintenance (maintainTables) VACUUMs and ANALYZEs a table only once enough of it changed.
// Regression: every table was analyzed every 5 s whatever changed, and with 100,000 jobs in the store each ANALYZE
// held PGlite's one connection for 1–3 s, so every request waited (issue 15, "flat as the store grows").
import { afterAll, beforeAll, expect, it } from 'vitest';
import { prepareStore, seedStore } from '../../bench/support/seed-store.ts';
import { type Database, openEmbedded } from '../src/store/database.ts';
import { maintainTables } from '../src/store/maintenance.ts';

const tables = ['executions', 'jobs', 'data_files'];
let db: Database;

beforeAll(async () => {
  db = await openEmbedded('memory:');
  await prepareStore(db);
  await seedStore(db, { jobs: 2_000, dataFiles: 100 });
  // The seed's own rows may reach the counts only after its VACUUM ANALYZE: one pass settles them.
  await maintain();
});
afterAll(() => db?.close());

/** The counts of changes reach pg_stat_user_tables when a transaction ends, at most once a second unless forced. */
async function maintain(): Promise<string[]> {
  await db.query('SELECT pg_stat_force_next_flush()');
  await db.query('SELECT 1');
  return maintainTables(db, tables);
}

it('does nothing while the tables have not changed', async () => {
  expect(await maintain()).toEqual([]);
  expect(await maintain()).toEqual([]);
});

it('analyzes a table once more than 50 + 10% of its rows changed, then not again', async () => {
  await db.query('UPDATE jobs SET error = NULL WHERE id IN (SELECT id FROM jobs ORDER BY seq LIMIT 200)');
  expect(await maintain()).toEqual([]); // 200 of 2,000: below 50 + 200
  await db.query('UPDATE jobs SET error = NULL WHERE id IN (SELECT id FROM jobs ORDER BY seq DESC LIMIT 100)');
  expect(await maintain()).toEqual(['ANALYZE "jobs"']);
  expect(await maintain()).toEqual([]);
});

it('vacuums a table once more rows than 1,000 + 20% of it were added', async () => {
  await db.query(
    `INSERT INTO data_files (owner, id, problem_id, name, bytes, status)
     SELECT 'bench', 'added-' || i, 'maxcut', 'added', 1, 'READY' FROM generate_series(1, 1500) AS i`,
  );
  // 1,500 rows added to 100: more than 1,000 + 20% of 1,600.
  expect(await maintain()).toEqual(['VACUUM ANALYZE "data_files"']);
  expect(await maintain()).toEqual([]);
});
