// What exists before the fuzz starts: each user's token, a job that has ended and a data file that is READY
// (on the server), or the contract's example ids (on the sandbox, which stores nothing). Cases name them
// through placeholders; a user's jobs and uploads made during the run are added as they are accepted.
import type { Placeholder } from './cases.ts';
import { fuzzUsers, jwtSecret } from './processes.ts';
import { send } from './wire.ts';

export interface FuzzUser {
  name: string;
  password: string;
  token: string;
  finishedJob: string;
  file: string;
  /** Jobs and data files this user's cases created, newest last. */
  jobs: string[];
  files: string[];
}

export interface Fixtures {
  users: FuzzUser[];
  jwtSecret: string;
  /** What each placeholder stands for in a case sent as user `i`. */
  placeholders(i: number): Record<Placeholder, string>;
}

const unknownFile = 'f'.repeat(40);

interface CallOptions {
  token?: string;
  json?: unknown;
  body?: Buffer;
  headers?: [string, string][];
}

async function call(
  base: string,
  method: string,
  target: string,
  options: CallOptions = {},
): Promise<{ status: number; json: any; retryAfter?: string }> {
  const headers: [string, string][] = [
    ...(options.headers ?? []),
    ...(options.token ? [['Authorization', `Bearer ${options.token}`] as [string, string]] : []),
  ];
  if (options.json !== undefined) headers.push(['Content-Type', 'application/json']);
  const body = options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : options.body;
  const reply = await send(base, { method, target, headers, ...(body ? { body } : {}) }, { timeoutMs: 30_000 });
  if ('error' in reply) throw new Error(`${method} ${target}: ${reply.error}`);
  const text = reply.response.body.toString('utf8');
  return {
    status: reply.response.status,
    json: text ? JSON.parse(text) : undefined,
    ...(reply.response.headers['retry-after'] ? { retryAfter: reply.response.headers['retry-after'] } : {}),
  };
}

function expectStatus(reply: { status: number; json: any }, ok: number[], what: string): any {
  if (!ok.includes(reply.status))
    throw new Error(`setting up the fuzz: ${what} answered ${reply.status} ${JSON.stringify(reply.json)}`);
  return reply.json;
}

function placeholdersOf(users: FuzzUser[]) {
  return (i: number): Record<Placeholder, string> => {
    const user = users[i]!;
    const other = users[(i + 1) % users.length]!;
    return {
      job: user.jobs.at(-1) ?? user.finishedJob,
      finished: user.finishedJob,
      foreign_job: other.finishedJob,
      file: user.file,
      new_file: user.files.at(-1) ?? unknownFile,
      foreign_file: other.file,
      username: user.name,
      password: user.password,
    };
  };
}

/** Logs in, waiting as told while the server turns logins away (a password check is expensive on purpose). */
async function login(base: string, username: string, password: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    const reply = await call(base, 'POST', '/login', { json: { username, password } });
    if (reply.status !== 429 || tries === 30) return expectStatus(reply, [200], `logging in ${username}`).access_token;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(5, Number(reply.retryAfter) || 1)));
  }
}

async function serverUser(base: string, name: string, password: string, i: number): Promise<FuzzUser> {
  const token = await login(base, name, password);
  const { job } = expectStatus(
    await call(base, 'POST', '/problem/maxcut?solver=exact', {
      token,
      json: {
        num_nodes: 2,
        adj_matrix: [
          [0, i + 1],
          [i + 1, 0],
        ],
      },
    }),
    [200],
    'starting a job',
  );
  const boundary = 'fixture-boundary';
  const form = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="g.txt"',
    'Content-Type: text/plain',
    '',
    `3 2\n1 2 ${i + 1}\n2 3 1`,
    `--${boundary}`,
    'Content-Disposition: form-data; name="problem_id"',
    '',
    'maxcut',
    `--${boundary}`,
    'Content-Disposition: form-data; name="name"',
    '',
    `fixture-${i}.txt`,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const headers: [string, string][] = [['Content-Type', `multipart/form-data; boundary=${boundary}`]];
  const upload = expectStatus(
    await call(base, 'POST', '/data_file', { token, body: Buffer.from(form), headers }),
    [200, 201],
    'uploading a data file',
  );
  const file = upload.data_file_identifier as string;
  for (let tries = 0; ; tries++) {
    const reply = expectStatus(
      await call(base, 'GET', `/job/${job}`, { token, headers: [['Prefer', 'wait=5']] }),
      [200],
      'reading a job',
    );
    if (['FINISHED', 'ERROR', 'CANCELLED'].includes(reply.job[job].status)) break;
    if (tries > 20) throw new Error(`setting up the fuzz: job ${job} did not end`);
  }
  for (let tries = 0; ; tries++) {
    const reply = expectStatus(await call(base, 'GET', `/data_file/${file}`, { token }), [200], 'reading a data file');
    if (reply.data_file[file].status === 'READY') break;
    if (tries > 200) throw new Error(`setting up the fuzz: data file ${file} is ${reply.data_file[file].status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { name, password, token, finishedJob: job, file, jobs: [], files: [] };
}

/** Logs in the server's `count` users and gives each a job that has ended and a READY data file. */
export async function serverFixtures(base: string, count: number): Promise<Fixtures> {
  // One at a time: the server checks one password at a time and turns a crowd away.
  const users: FuzzUser[] = [];
  for (const [i, u] of fuzzUsers(count).entries()) users.push(await serverUser(base, u.name, u.password, i));
  return { users, jwtSecret, placeholders: placeholdersOf(users) };
}

/** The sandbox accepts any credentials and any well-formed token; its ids are the contract's examples. */
export async function sandboxFixtures(base: string): Promise<Fixtures> {
  const { access_token: token } = expectStatus(
    await call(base, 'POST', '/login', { json: { username: 'demo', password: 'correct-horse-battery-staple' } }),
    [200],
    'logging in to the sandbox',
  );
  const user: FuzzUser = {
    name: 'demo',
    password: 'correct-horse-battery-staple',
    token,
    finishedJob: 'K7Q2M9X4TB1R',
    file: 'd6e02699b78918a5032ec7a872e2de7800c3a15a',
    jobs: [],
    files: [],
  };
  return { users: [user], jwtSecret, placeholders: placeholdersOf([user]) };
}
