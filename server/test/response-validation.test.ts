// Responses are validated against the contract by default (JES_VALIDATE_RESPONSES=on): an answer that does not
// conform is not sent; the client gets 500 internal_error with the request id, and the failure is logged with it.
// The non-conforming answer is provoked through the real store: a job row whose status is none of the contract's.
// Switched off, the same row is served as it is, which shows the check is what refused it.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/config.ts';
import { type Running, startServer } from '../src/start/main.ts';
import { Client, testEnv } from './support/server.ts';

async function startLogged(overrides: Record<string, string>): Promise<{ server: Running; logged: () => any[] }> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = readConfig(testEnv({ JES_WORKERS: '0', LOG_LEVEL: 'info', ...overrides }));
  const server = await startServer(config, pino({ level: 'info' }, sink));
  return { server, logged: () => lines.map((line) => JSON.parse(line)) };
}

/** A job of alice's stored with a status the contract does not have, or ended with an input mode it does not have. */
async function oddJob(server: Running, id: string, { status = 'MISLAID', mode = 'inline' } = {}): Promise<void> {
  await server.db.query(
    `INSERT INTO jobs (id, owner, problem_id, status, input_mode, input_bytes, ended_at)
     VALUES ($1, 'alice', 'maxcut', $2, $3, 10, CASE WHEN $2 = 'FINISHED' THEN now() END)`,
    [id, status, mode],
  );
}

describe.each([
  ['on (the default)', {}],
  ['off', { JES_VALIDATE_RESPONSES: 'off' }],
])('response validation %s', (setting, overrides) => {
  let server: Running;
  let logged: () => any[];
  let alice: Client;
  beforeAll(async () => {
    ({ server, logged } = await startLogged(overrides));
    alice = await new Client(server.url).login('alice');
  });
  afterAll(() => server?.close());

  it(
    setting === 'off'
      ? 'serves the non-conforming job as it is'
      : 'answers a non-conforming job with 500 internal_error and logs the failure with the request id',
    async () => {
      await oddJob(server, 'ODDJOB000001');
      const reply = await alice.request('GET', '/job/ODDJOB000001', { headers: { 'x-request-id': 'odd-job-read' } });
      if (setting === 'off') {
        expect(reply.status).toBe(200);
        expect(reply.body.job.ODDJOB000001.status).toBe('MISLAID');
        return;
      }
      expect(reply.status).toBe(500);
      expect(reply.body).toMatchObject({ code: 'internal_error', request_id: 'odd-job-read' });
      expect(JSON.stringify(reply.body)).not.toContain('MISLAID');
      const failure = logged().find((line) => line.level === 50 && line.reqId === 'odd-job-read');
      expect(failure?.err?.message).toMatch(/status.*must be equal to one of the allowed values/);
      // The server goes on serving conforming answers.
      expect((await alice.request('GET', '/job')).status).toBe(500); // the listing shows the odd job too
      await server.db.query(`DELETE FROM jobs WHERE id = 'ODDJOB000001'`);
      expect((await alice.request('GET', '/job')).status).toBe(200);
      // The two 500s were the point of this test, not a server error to report.
      expect(Client.serverErrors.splice(-2).map((e) => e.split(' → ')[0])).toEqual([
        'GET /job/ODDJOB000001',
        'GET /job',
      ]);
    },
  );

  // A finished job's answer is made once and frozen, and the validator remembers the frozen answers that passed:
  // one that failed is checked, and refused, every time it is asked for.
  it(
    setting === 'off'
      ? 'serves a finished non-conforming job as it is, every time'
      : 'refuses a finished non-conforming job every time it is asked for',
    async () => {
      await oddJob(server, 'ODDJOB000002', { status: 'FINISHED', mode: 'carrier-pigeon' });
      for (let i = 0; i < 3; i++) {
        const reply = await alice.request('GET', '/job/ODDJOB000002');
        expect(reply.status).toBe(setting === 'off' ? 200 : 500);
        if (setting === 'off') expect(reply.body.job.ODDJOB000002.input.mode).toBe('carrier-pigeon');
      }
      await server.db.query(`DELETE FROM jobs WHERE id = 'ODDJOB000002'`);
      if (setting !== 'off') expect(Client.serverErrors.splice(-3)).toHaveLength(3);
    },
  );
});
