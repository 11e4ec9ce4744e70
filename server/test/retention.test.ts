// Retention (issue 11, section 6): ended jobs older than JES_RETENTION_DAYS go with their executions, data files
// no remaining job uses go once as old, idempotency keys after 24 hours, and chunks of uploads cut off by a crash
// are swept (section 4). The clock is passed in: rows are aged by SQL, never by waiting.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/config.ts';
import { runRetention } from '../src/start/retention.ts';
import { backends, sixNodes, startTestServer } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const day = 86_400_000;
/** An edge list of the 6-node example with one weight changed, so that each is a data file of its own. */
const edgeList = (w: number) =>
  `6 12\n1 2 ${w}\n1 3 6\n1 4 7\n1 5 3\n2 3 4\n2 4 5\n2 5 8\n2 6 9\n3 4 6\n3 5 5\n3 6 7\n4 5 8\n`;

describe('JES_RETENTION_DAYS', () => {
  const read = (value?: string) =>
    readConfig({ JES_DATA_DIR: 'memory:', ...(value === undefined ? {} : { JES_RETENTION_DAYS: value }) })
      .retentionDays;
  it('is 30 days by default, off keeps everything, and decimals are days in part', () => {
    expect(read()).toBe(30);
    expect(read('off')).toBeUndefined();
    expect(read('0.5')).toBe(0.5);
    expect(read('365')).toBe(365);
  });
  it('refuses anything else with one line naming it', () => {
    for (const value of ['0', '-1', 'abc', '1e9', '36501', 'none', '7d'])
      expect(() => read(value)).toThrow(/^JES_RETENTION_DAYS must be/);
  });
});

describe.each(await backends())('on %s', (_name, backend) => {
  const jes = sharedServer({ JES_WORKERS: '1' }, { backend });

  const fileOf = async (weight: number) => {
    const id = (await jes.alice.upload(edgeList(weight), `w${weight}.txt`)).body.data_file_identifier as string;
    await jes.alice.validated(id);
    return id;
  };
  const status = async (path: string) => (await jes.alice.get(path)).status;
  const count = async (sql: string, params: unknown[]) =>
    (await jes.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;

  it('deletes old ended jobs, then the old data files no job uses, old idempotency keys and orphan upload chunks; keeps the rest', async () => {
    const [unused, keptByRecent, keptByRunning, onlyOldJob] = await Promise.all([
      fileOf(11),
      fileOf(12),
      fileOf(13),
      fileOf(14),
    ]);
    const oldJob = await jes.alice.start(sixNodes, '?solver=exact');
    const oldJobOnFile = await jes.alice.start({ data_file_identifier: onlyOldJob, solvers: [{ name: 'exact' }] });
    const recentJob = await jes.alice.start({ data_file_identifier: keptByRecent, solvers: [{ name: 'exact' }] });
    for (const id of [oldJob, oldJobOnFile, recentJob]) expect((await jes.alice.waitFor(id)).status).toBe('FINISHED');
    const runningJob = await jes.alice.start({
      data_file_identifier: keptByRunning,
      solvers: [{ name: 'local-search' }],
      time_limit_seconds: 60,
    });

    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    await jes.server.db.query('UPDATE jobs SET ended_at = $2, submitted_at = $2 WHERE id = ANY($1)', [
      [oldJob, oldJobOnFile],
      ago(31 * day),
    ]);
    await jes.server.db.query('UPDATE jobs SET submitted_at = $2 WHERE id = $1', [runningJob, ago(40 * day)]);
    await jes.server.db.query('UPDATE data_files SET created_at = $1', [ago(31 * day)]);
    await jes.server.db.query(
      `INSERT INTO data_file_chunks (owner, id, part, bytes, created_at) VALUES ('alice', 'upload:cut-off', 0, '\\x00', $1), ('alice', 'upload:streaming', 0, '\\x00', $2)`,
      [ago(3600_000), ago(60_000)],
    );
    // A validation's prepared input staged before a crash, and one being written now (validations.ts).
    await jes.server.db.query(
      `INSERT INTO data_file_prepared (owner, id, part, bytes, created_at) VALUES ('alice', 'staging:cut-off', 0, '\\x00', $1), ('alice', 'staging:writing', 0, '\\x00', $2)`,
      [ago(3600_000), ago(60_000)],
    );
    await jes.server.db.query(
      `INSERT INTO idempotency_keys (owner, key, fingerprint, status, body, created_at) VALUES ('alice', 'old', 'f', 200, '{}', $1), ('alice', 'new', 'f', 200, '{}', $2)`,
      [ago(25 * 3600_000), ago(3600_000)],
    );

    // off: no job and no data file goes, whatever its age; expired idempotency keys, cut-off uploads and staged
    // inputs do.
    const off = await runRetention(
      jes.server.db,
      { retentionDays: undefined, uploadAgeMs: 20 * 60_000, batch: 1 },
      now,
    );
    expect(off).toEqual({ jobs: 0, dataFiles: 0, idempotencyKeys: 1, uploadChunks: 2 });
    expect(
      (await jes.server.db.query<{ id: string }>(`SELECT id FROM data_file_prepared WHERE id LIKE 'staging:%'`)).map(
        (r) => r.id,
      ),
    ).toEqual(['staging:writing']);
    for (const id of [oldJob, oldJobOnFile]) expect(await status(`/job/${id}`)).toBe(200);
    expect(await status(`/data_file/${unused}`)).toBe(200);

    // Batches of one: every step runs until nothing is left.
    const counts = await runRetention(jes.server.db, { retentionDays: 30, uploadAgeMs: 20 * 60_000, batch: 1 }, now);
    expect(counts).toEqual({ jobs: 2, dataFiles: 2, idempotencyKeys: 0, uploadChunks: 0 });
    for (const id of [oldJob, oldJobOnFile]) await expect.poll(() => status(`/job/${id}`)).toBe(404);
    expect(await count('executions WHERE job_id = ANY($1)', [[oldJob, oldJobOnFile]])).toBe(0);
    for (const id of [unused, onlyOldJob]) expect(await status(`/data_file/${id}`)).toBe(404);
    expect(await count('data_file_chunks WHERE id = ANY($1)', [[unused, onlyOldJob]])).toBe(0);

    expect((await jes.alice.get(`/job/${recentJob}`)).body.job[recentJob].status).toBe('FINISHED');
    expect(['PENDING', 'RUNNING']).toContain((await jes.alice.get(`/job/${runningJob}`)).body.job[runningJob].status);
    for (const id of [keptByRecent, keptByRunning]) expect(await status(`/data_file/${id}`)).toBe(200);
    expect(await count('data_file_chunks WHERE id = ANY($1)', [[keptByRecent, keptByRunning]])).toBe(2);
    expect(
      (await jes.server.db.query<{ id: string }>(`SELECT id FROM data_file_chunks WHERE id LIKE 'upload:%'`)).map(
        (r) => r.id,
      ),
    ).toEqual(['upload:streaming']);
    expect((await jes.server.db.query<{ key: string }>('SELECT key FROM idempotency_keys')).map((r) => r.key)).toEqual([
      'new',
    ]);

    // Nothing more to do on a second run.
    expect(await runRetention(jes.server.db, { retentionDays: 30, uploadAgeMs: 20 * 60_000 }, now)).toEqual({
      jobs: 0,
      dataFiles: 0,
      idempotencyKeys: 0,
      uploadChunks: 0,
    });
    await jes.alice.post(`/job/${runningJob}/cancel`);
    await jes.alice.waitFor(runningJob);
  });
});

describe('on the embedded database, at start-up', () => {
  let dir: string;
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('sweeps every upload chunk, however recent: no other process can be uploading', async () => {
    dir = await mkdtemp(join(tmpdir(), 'jes-retention-'));
    const first = await startTestServer({ JES_DATA_DIR: dir, JES_WORKERS: '0' });
    await first.db.query(
      `INSERT INTO data_file_chunks (owner, id, part, bytes) VALUES ('alice', 'upload:cut-off', 0, '\\x00'), ('alice', 'upload:cut-off', 1, '\\x00')`,
    );
    await first.close();
    const second = await startTestServer({ JES_DATA_DIR: dir, JES_WORKERS: '0' });
    try {
      expect(await second.db.query(`SELECT id FROM data_file_chunks WHERE id LIKE 'upload:%'`)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
