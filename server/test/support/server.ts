// Starting the real server for tests (in this process, on a free port, with real worker threads) and
// talking to it over HTTP. PostgreSQL runs get a database of their own, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { cheapUsersSetting } from '../../../test/support/users-setting.ts';
import { readConfig } from '../../src/config/config.ts';
import { serverErrors } from './server-errors.ts';
import { type Running, startServer } from '../../src/start/main.ts';

// Reference computations over the contract's dense matrix, shared with the contract suite.
export { bruteForceMaxCut, cutValue, formatTimestamp } from '../../../test/contract/maxcut.ts';

export const users = { alice: 'alice-password-1', bob: 'bob-password-2' };
export const jwtSecret = 'test-secret-that-is-at-least-32-bytes-long!';

/**
 * Settings for a test server: in-memory database, no rate limits, two users (their passwords as cheap stored hashes),
 * a known signing key.
 */
export function testEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PORT: '0',
    JES_DATA_DIR: 'memory:',
    JES_USERS: cheapUsersSetting(users),
    JES_JWT_SECRET: jwtSecret,
    JES_WORKERS: '2',
    // One thread an execution, as before teams (solver-teams.test.ts runs them): two would double the CPU every
    // heuristic job of the suite takes, on a 2-core machine.
    JES_EXECUTION_THREADS: '1',
    JES_RATE_LIMITS: 'off',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...overrides,
  };
}

export async function startTestServer(overrides: Record<string, string> = {}): Promise<Running> {
  const config = readConfig(testEnv(overrides));
  return startServer(config, pino({ level: config.logLevel }));
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small HTTP client for one user of one server. */
export class Client {
  /** Every 5xx any client received: a test file that leaves one here fails (see no-server-errors.ts). */
  static readonly serverErrors = serverErrors;
  token: string | undefined;
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  async login(username: keyof typeof users | string, password = users[username as keyof typeof users]): Promise<this> {
    const reply = await this.request('POST', '/login', { json: { username, password } });
    if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    this.token = reply.body.access_token;
    return this;
  }

  async request<T = any>(
    method: string,
    path: string,
    options: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = {
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...options.headers,
    };
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await fetch(this.base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    if (res.status >= 500) Client.serverErrors.push(`${method} ${path} → ${res.status} ${text}`);
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: res.status, headers: res.headers, body: parsed };
  }

  get = <T = any>(path: string, headers?: Record<string, string>) =>
    this.request<T>('GET', path, headers ? { headers } : {});
  post = <T = any>(path: string, json?: unknown) => this.request<T>('POST', path, json === undefined ? {} : { json });

  /** Uploads `text` as a data file of `problemId` named `name`. */
  upload(text: string, name = 'graph.txt', problemId = 'maxcut'): Promise<Reply> {
    const form = new FormData();
    form.set('file', new Blob([text]), name);
    form.set('problem_id', problemId);
    form.set('name', name);
    return this.request('POST', '/data_file', { body: form });
  }

  /** Waits while a data file is PROCESSING; returns its record. */
  async validated(id: string): Promise<any> {
    for (let i = 0; i < 200; i++) {
      const record = (await this.get(`/data_file/${id}`)).body.data_file[id];
      if (record.status !== 'PROCESSING') return record;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`data file ${id} still PROCESSING`);
  }

  /** Starts a job and returns its id (fails the test on any other answer). */
  async start(input: unknown, query = ''): Promise<string> {
    const reply = await this.post(`/problem/maxcut${query}`, input);
    if (reply.status !== 200) throw new Error(`start failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.job;
  }

  /** Long-polls a job until it ends; returns the job object. */
  async waitFor(id: string, seconds = 60): Promise<any> {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const reply = await this.get(`/job/${id}`, { prefer: 'wait=10' });
      if (reply.status !== 200) throw new Error(`GET /job/${id}: ${reply.status} ${JSON.stringify(reply.body)}`);
      const job = reply.body.job[id];
      if (['FINISHED', 'ERROR', 'CANCELLED'].includes(job.status)) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${seconds} s`);
    }
  }
}

export const postgresAdminUrl = process.env.JES_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Why the PostgreSQL runs are off, when JES_TEST_POSTGRES_URL is `off`: JES_TEST_POSTGRES_OFF says why (the clock
 * runs set it: faketime moves this process's clock, not the database server's).
 */
const postgresOff =
  postgresAdminUrl === 'off'
    ? `JES_TEST_POSTGRES_URL=off (${process.env.JES_TEST_POSTGRES_OFF ?? 'no reason given'})`
    : undefined;

/** A fresh PostgreSQL database for one test file, or the reason there is none. */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> } | { skip: string }> {
  if (postgresOff) return { skip: postgresOff };
  const admin = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch (error) {
    return {
      skip: `no PostgreSQL at ${postgresAdminUrl} (${(error as Error).message}); set JES_TEST_POSTGRES_URL to run these tests`,
    };
  }
  const name = `jes_test_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: postgresAdminUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

export { sixNodes, sixNodesEdgeList } from '../../../test/support/six-nodes.ts';

/** A random symmetric matrix with some negative and fractional weights. */
export function randomMatrix(n: number, seed: number): number[][] {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const r = next();
      const w = r < 0.3 ? 0 : r < 0.5 ? -Math.round(next() * 5) : Math.round(next() * 40) / 4;
      m[i]![j] = m[j]![i] = w;
    }
  }
  return m;
}

export interface Backend {
  env(): Promise<Record<string, string>>;
  drop(): Promise<void>;
}

/**
 * The databases to run storage tests on: embedded always; PostgreSQL when one answers at
 * JES_TEST_POSTGRES_URL (default 127.0.0.1:5432, database test), else skipped with the reason printed.
 */
export async function backends(): Promise<[string, Backend][]> {
  const list: [string, Backend][] = [['embedded PGlite', { env: async () => ({}), drop: async () => {} }]];
  if (postgresOff) {
    console.warn(`skipping the PostgreSQL runs: ${postgresOff}`);
    return list;
  }
  const probe = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    await probe.end();
  } catch (error) {
    console.warn(
      `skipping the PostgreSQL runs: no PostgreSQL at ${postgresAdminUrl} (${(error as Error).message}); set JES_TEST_POSTGRES_URL`,
    );
    return list;
  }
  let dropper: (() => Promise<void>) | undefined;
  list.push([
    'PostgreSQL',
    {
      async env() {
        const db = await freshPostgres();
        if ('skip' in db) throw new Error(db.skip);
        dropper = db.drop;
        return { DATABASE_URL: db.url };
      },
      drop: async () => dropper?.(),
    },
  ]);
  return list;
}
