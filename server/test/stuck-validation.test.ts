// A data file's validation always ends (issue 27): a NUL in a bad line made the refusal's message, which quotes the
// line, a text the database refuses to store, so the file stayed PROCESSING and was parsed again every time its
// lease ran out, and its jobs stayed PENDING (one after 51 minutes). The message now shows the NUL as an escape; and
// a validation that keeps failing for a reason of its own (here a verdict the database refuses) ends INVALID after
// maxValidationAttempts tries, failing its jobs. On the embedded database and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { jsonText, storableString } from '../src/store/json-text.ts';
import { releaseValidations } from '../src/store/validations.ts';
import { maxValidationAttempts } from '../src/worker/validation.ts';
import { backends } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

describe('storableString', () => {
  it('writes a NUL and lone surrogates as escapes, and keeps every other character', () => {
    expect(storableString('a\0b')).toBe('a\\u0000b');
    expect(storableString('x\ud800y\udc01z')).toBe('x\\ud800y\\udc01z');
    expect(storableString('\udc00\ud800')).toBe('\\udc00\\ud800'); // a low then a high: neither is a pair
    expect(storableString('ok 😀 \t\n\u00e9')).toBe('ok 😀 \t\n\u00e9');
    expect(JSON.parse(jsonText({ detail: 'a\0', errors: [{ detail: '\ud83d' }] }))).toEqual({
      detail: 'a\\u0000',
      errors: [{ detail: '\\ud83d' }],
    });
  });
});

describe.each(await backends())('on %s', (_name, backend) => {
  const jes = sharedServer({ JES_LEASE_SECONDS: '2' }, { backend });

  const upload = async (problemId: string, bytes: string) => {
    const reply = await jes.alice.upload(bytes, 'nul.txt', problemId);
    expect(reply.status).toBe(201);
    return reply.body.data_file_identifier as string;
  };
  /** The file's record once it is no longer PROCESSING (within `seconds`). */
  const verdict = async (id: string, seconds: number) => {
    const deadline = performance.now() + seconds * 1000;
    for (;;) {
      const record = (await jes.alice.get(`/data_file/${id}`)).body.data_file[id];
      if (record.status !== 'PROCESSING') return record;
      if (performance.now() > deadline) throw new Error(`data file ${id} still PROCESSING after ${seconds} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it.each([
    ['maxcut', '2 1\n1 2 1\0\n', 'found "1 2 1\\u0000"'],
    ['qubo', 'p qubo 0 2 0 0\0\n', 'found "p qubo 0 2 0 0\\u0000"'],
  ])(
    'refuses a %s file with a NUL in a bad line at once, quoting it escaped, and fails its job',
    async (problemId, bytes, quoted) => {
      const id = await upload(problemId, bytes);
      // Started while the file is validated, the job ends in ERROR; once the file is INVALID, it is refused (422).
      const job = await jes.alice.request('POST', `/problem/${problemId}`, { json: { data_file_identifier: id } });
      const record = await verdict(id, 10);
      expect(record.status).toBe('INVALID');
      expect(record.error.detail).toContain(quoted);
      if (job.status === 200) expect((await jes.alice.waitFor(job.body.job)).status).toBe('ERROR');
      else expect([job.status, job.body.code]).toEqual([422, 'data_file_invalid']);
    },
  );

  it('counts a claim lost to a crash as a try, and one handed back at shutdown not (issue 28: killed five times, still PROCESSING)', async () => {
    // No worker may claim it meanwhile: the file is inserted already claimed, and only this test moves it.
    await jes.server.db.query(
      `INSERT INTO data_files (owner, id, problem_id, name, bytes, status, lease_owner, lease_expires_at, validation_attempts)
       VALUES ('alice', 'c0ffee0000000000000000000000000000000000', 'maxcut', 'crashing.txt', 1, 'PROCESSING', 'gone', now() + interval '1 hour', 1)`,
    );
    const attempts = async () =>
      (
        await jes.server.db.query<{ validation_attempts: number }>(
          `SELECT validation_attempts FROM data_files WHERE id = 'c0ffee0000000000000000000000000000000000'`,
        )
      )[0]!.validation_attempts;
    await releaseValidations(jes.server.db, 'gone'); // a shutdown's handback: the try does not count
    expect(await attempts()).toBe(0);
    await jes.server.db.query(
      `UPDATE data_files SET lease_owner = 'gone', validation_attempts = 1 WHERE id = 'c0ffee0000000000000000000000000000000000'`,
    );
    await releaseValidations(jes.server.db); // the embedded database's start-up after a kill: it counts
    expect(await attempts()).toBe(1);
    await jes.server.db.query(`DELETE FROM data_files WHERE id = 'c0ffee0000000000000000000000000000000000'`);
  });

  it(`gives a validation that keeps failing up after ${maxValidationAttempts} tries: INVALID, its job ERROR`, async () => {
    // The database refuses this file's READY verdict, every time, as it refused the NUL.
    await jes.server.db.query(`CREATE FUNCTION refuse_ready() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'READY' AND NEW.name = 'refused.txt' THEN RAISE EXCEPTION 'this verdict cannot be stored'; END IF;
        RETURN NEW;
      END $$`);
    await jes.server.db.query(
      'CREATE TRIGGER refuse_ready BEFORE UPDATE ON data_files FOR EACH ROW EXECUTE FUNCTION refuse_ready()',
    );
    try {
      const id = (await jes.alice.upload('2 1\n1 2 7\n', 'refused.txt')).body.data_file_identifier;
      const job = (await jes.alice.post('/problem/maxcut', { data_file_identifier: id })).body.job;
      // Each try waits for the last one's lease (2 s) to run out.
      const record = await verdict(id, 10 * maxValidationAttempts);
      expect(record.status).toBe('INVALID');
      expect(record.error).toMatchObject({
        code: 'data_file_invalid',
        detail: expect.stringMatching(
          new RegExp(`^The data file could not be validated: ${maxValidationAttempts} tries`),
        ),
      });
      const [row] = await jes.server.db.query<{ validation_attempts: number }>(
        'SELECT validation_attempts FROM data_files WHERE id = $1',
        [id],
      );
      expect(row!.validation_attempts).toBe(maxValidationAttempts + 1);
      const ended = await jes.alice.waitFor(job);
      expect([ended.status, ended.error?.code]).toEqual(['ERROR', 'data_file_invalid']);
    } finally {
      await jes.server.db.query('DROP TRIGGER refuse_ready ON data_files');
      await jes.server.db.query('DROP FUNCTION refuse_ready()');
    }
  }, 60_000);
});
