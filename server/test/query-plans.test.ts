// The list and claim queries use indexes, not a scan of the whole table, once the store holds many jobs (issue 15,
// "flat as the store grows"). The SQL is the store module's own: each store function runs on a database that records
// what it is sent, and every statement recorded is then EXPLAINed with its parameters. A Seq Scan of jobs,
// executions or data_files fails the test, with the plan in the message; so does a SELECT that reads more than
// `maxRowsRead` rows of them (EXPLAIN ANALYZE: the rows its scans return and those their filters drop), which an
// index used only in part does (a page of a status the user has none of read all 5,000 of their jobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStore, seedOwners, seedReadFixtures, seedStore } from '../../bench/support/seed-store.ts';
import { listDataFiles } from '../src/store/data-files.ts';
import { type Database, openDatabase, type Queryable } from '../src/store/database.ts';
import { listJobs } from '../src/store/jobs.ts';
import { claim } from '../src/store/queue.ts';
import { backends } from './support/server.ts';
import { storedJob } from './support/store-jobs.ts';

const owner = seedOwners[0]!;
const watched = new Set(['jobs', 'executions', 'data_files']);
/** A page is 21 rows read (20 and one to know whether more follow); the claim reads its queue (10 jobs here). */
const maxRowsRead = 100;

interface Statement {
  sql: string;
  params: unknown[] | undefined;
}

/** `db`, recording every statement sent to it (in a transaction too) into `into`. */
function recording(db: Database, into: Statement[]): Database {
  const record =
    (target: Queryable): Queryable['query'] =>
    (sql, params) => {
      into.push({ sql, params });
      return target.query(sql, params);
    };
  return { ...db, query: record(db), transaction: (fn) => db.transaction((tx) => fn({ query: record(tx) })) };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode): string[] {
  const own =
    node['Node Type'] === 'Seq Scan' && watched.has(node['Relation Name'] ?? '') ? [node['Relation Name']!] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

/** Rows of the watched tables the scans of an analyzed plan read: returned, or dropped by a filter. */
function rowsRead(node: PlanNode): number {
  const own = watched.has(node['Relation Name'] ?? '')
    ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1)
    : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);
}

async function plan(db: Database, sql: string, params: unknown[] | undefined, analyze: boolean): Promise<PlanNode> {
  const [row] = await db.query<{ 'QUERY PLAN': string | [{ Plan: PlanNode }] }>(
    `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${sql}`,
    params,
  );
  const text = row!['QUERY PLAN'];
  return (typeof text === 'string' ? (JSON.parse(text) as [{ Plan: PlanNode }]) : text)[0].Plan;
}
const shown = (node: PlanNode) =>
  JSON.stringify(
    node,
    [
      'Node Type',
      'Relation Name',
      'Index Name',
      'Index Cond',
      'Filter',
      'Actual Rows',
      'Rows Removed by Filter',
      'Plans',
    ],
    1,
  );

describe.each(await backends())('%s', (_name, backend) => {
  let db: Database;
  beforeAll(async () => {
    const env = await backend.env();
    db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: 'memory:' });
    await prepareStore(db);
    await seedStore(db, { jobs: 20_000, dataFiles: 2_000 });
    await seedReadFixtures(db);
    // Work in the queue for the claim: a few jobs, one of them on a data file.
    const [file] = await db.query<{ id: string }>('SELECT id FROM data_files WHERE owner = $1 LIMIT 1', [owner]);
    for (let i = 0; i < 10; i++)
      await storedJob(db, owner, [], {
        inputMode: i === 0 ? 'data_file' : 'inline',
        dataFileId: i === 0 ? file!.id : null,
        input: i === 0 ? null : new Uint8Array(2),
        executions: [{ solver: 'exact', params: {}, timeLimitSeconds: 10, seed: i }],
      });
    await db.query('ANALYZE');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await backend.drop();
  });

  /** Runs `use` on a recording database, then EXPLAINs what it sent; answers the plans that scan a watched table. */
  async function scansOf(use: (db: Database) => Promise<unknown>): Promise<string[]> {
    const statements: Statement[] = [];
    await use(recording(db, statements));
    expect(statements.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const { sql, params } of statements) {
      const estimated = await plan(db, sql, params, false);
      const scans = seqScans(estimated);
      if (scans.length) found.push(`Seq Scan on ${scans.join(', ')} in\n${sql}\n${shown(estimated)}`);
      // Only a SELECT is run to count what it reads (EXPLAIN ANALYZE runs the statement).
      if (!/^\s*SELECT\b/i.test(sql)) continue;
      const analyzed = await plan(db, sql, params, true);
      const read = rowsRead(analyzed);
      if (read > maxRowsRead) found.push(`${read} rows read by\n${sql}\n${shown(analyzed)}`);
    }
    return found;
  }

  const firstPage = async (db: Database) => (await listJobs(db, owner, { limit: 20 })).views.map((v) => v.job.id);

  it.each([
    ['GET /job, first page', (db: Database) => listJobs(db, owner, { limit: 20 })],
    ['GET /job?status=RUNNING', (db: Database) => listJobs(db, owner, { limit: 20, status: 'RUNNING' })],
    ['GET /job?status=FINISHED', (db: Database) => listJobs(db, owner, { limit: 20, status: 'FINISHED' })],
    ['GET /job?status=CANCELLED (none)', (db: Database) => listJobs(db, owner, { limit: 20, status: 'CANCELLED' })],
    ['GET /job?problem_id=qubo', (db: Database) => listJobs(db, owner, { limit: 20, problemId: 'qubo' })],
    [
      'GET /job?starting_after=',
      async (db: Database) => listJobs(db, owner, { limit: 20, startingAfter: (await firstPage(db)).at(-1) }),
    ],
    ['GET /data_file, first page', (db: Database) => listDataFiles(db, owner, { limit: 20 })],
    ['GET /data_file?status=READY', (db: Database) => listDataFiles(db, owner, { limit: 20, status: 'READY' })],
    [
      'GET /data_file?status=INVALID (none)',
      (db: Database) => listDataFiles(db, owner, { limit: 20, status: 'INVALID' }),
    ],
    [
      'GET /data_file?problem_id=qubo (none)',
      (db: Database) => listDataFiles(db, owner, { limit: 20, problemId: 'qubo' }),
    ],
    ['a worker claims executions', (db: Database) => claim(db, 'plan-test', 4, 60, { idle: true })],
  ])('%s uses indexes', async (_what, use) => {
    expect(await scansOf(use)).toEqual([]);
  });
});
