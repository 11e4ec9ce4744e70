// A job ends no earlier than any of its executions. On PostgreSQL now() is the time a transaction began, and the
// outcomes of two executions of one job can be recorded in transactions that overlap: the one that ends the job (it
// sees the other's outcome, committed) may have begun first, and so have the earlier now(). The conformance suite
// once saw a job that ended at :57 with an execution that ended at :58. The interleaving is forced here: the outcome
// of one execution begins its transaction and waits while the other's is recorded and committed. (The embedded
// database runs one transaction at a time: there, transactions cannot overlap.)
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/store/database.ts';
import { migrate } from '../src/store/migrations.ts';
import { claim, finish } from '../src/store/queue.ts';
import { freshPostgres } from './support/server.ts';
import { storedJob } from './support/store-jobs.ts';

const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the job end order test: ${database.skip}`);

describe.skipIf('skip' in database)('the end of a job on PostgreSQL', () => {
  let db: Database | undefined;
  afterAll(async () => {
    await db?.close();
    if (!('skip' in database)) await database.drop();
  });

  it('is no earlier than its executions, when the transaction that ends it began before the other', async () => {
    if ('skip' in database) return;
    db = await openDatabase({ databaseUrl: database.url, dataDir: 'memory:' });
    await migrate(db);
    await db.query(`INSERT INTO users (name, password_hash) VALUES ('alice', 'x')`);
    const id = await storedJob(db, 'alice', ['exact', 'local-search']);
    expect((await claim(db, 'w1', 2, 60, { idle: true })).map((c) => c.solver).sort()).toEqual([
      'exact',
      'local-search',
    ]);

    // exact's outcome: its transaction begins (now() is fixed there), then waits.
    let begun!: () => void;
    let go!: () => void;
    const began = new Promise<void>((resolve) => (begun = resolve));
    const going = new Promise<void>((resolve) => (go = resolve));
    const open = db;
    const waiting: Database = {
      ...open,
      transaction: (fn) =>
        open.transaction(async (tx) => {
          await tx.query('SELECT now()');
          begun();
          await going;
          return fn(tx);
        }),
    };
    const success = { status: 'SUCCESS' as const, data: {}, bestValue: 1 };
    const exact = finish(waiting, 'w1', id, 'exact', success);
    await began;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // local-search's outcome, recorded and committed meanwhile, with a later now(); the job still runs.
    expect(await finish(open, 'w1', id, 'local-search', success)).toBe(true);
    go();
    // exact's ends the job: it sees local-search's outcome.
    expect(await exact).toBe(true);

    const [job] = await open.query<{ status: string; ended_at: Date }>(
      'SELECT status, ended_at FROM jobs WHERE id = $1',
      [id],
    );
    const executions = await open.query<{ solver: string; ended_at: Date }>(
      'SELECT solver, ended_at FROM executions WHERE job_id = $1 ORDER BY solver',
      [id],
    );
    expect(job!.status).toBe('FINISHED');
    const [exactEnd, localEnd] = executions.map((e) => e.ended_at.getTime());
    expect(localEnd! - exactEnd!).toBeGreaterThanOrEqual(40); // the interleaving happened
    expect(job!.ended_at.getTime()).toBeGreaterThanOrEqual(Math.max(exactEnd!, localEnd!));
  });
});
