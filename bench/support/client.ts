// HTTP to the servers under test (node:http with keep-alive, loopback only) and the jes calls the benchmark makes.
import http from 'node:http';
import { terminal, user } from './settings.ts';

// ---------------------------------------------------------------------------------------------------
// HTTP (node:http, keep-alive; loopback only)

export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface Reply {
  status: number;
  body: Buffer;
}

export function send(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Reply> {
  const { port, hostname } = new URL(base);
  if (hostname !== '127.0.0.1') throw new Error(`refusing to talk to ${hostname}`);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
    const req = http.request({ host: '127.0.0.1', port: Number(port), method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export const json = (reply: Reply) => JSON.parse(reply.body.toString('utf8'));

export class Api {
  readonly base: string;
  token = '';
  constructor(base: string) {
    this.base = base;
  }
  get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }
  /** Logs in as the benchmark's user, or as `as` (the sandbox takes any username and password). */
  async login(as: { username: string; password: string } = user): Promise<void> {
    const reply = await send(this.base, 'POST', '/login', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(as),
    });
    if (reply.status !== 200) throw new Error(`login: ${reply.status} ${reply.body}`);
    this.token = json(reply).access_token;
  }
  async start(body: Buffer | string, query = ''): Promise<string> {
    const reply = await send(this.base, 'POST', `/problem/maxcut${query}`, {
      headers: { ...this.auth, 'content-type': 'application/json' },
      body,
    });
    if (reply.status !== 200) throw new Error(`start: ${reply.status} ${reply.body}`);
    return json(reply).job;
  }
  async get(id: string, wait?: number): Promise<Reply> {
    return send(this.base, 'GET', `/job/${id}`, {
      headers: { ...this.auth, ...(wait !== undefined ? { prefer: `wait=${wait}` } : {}) },
    });
  }
  /** Long-polls until `until(status)`; fails if the job ends otherwise. Returns the job. */
  async waitFor(id: string, until: (status: string) => boolean, seconds = 300): Promise<{ status: string }> {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const reply = await this.get(id, 10);
      if (reply.status !== 200) throw new Error(`GET /job/${id}: ${reply.status} ${reply.body}`);
      const job = json(reply).job[id] as { status: string };
      if (until(job.status)) return job;
      if (terminal.has(job.status)) throw new Error(`job ${id} ended ${job.status}: ${JSON.stringify(job)}`);
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${seconds} s`);
    }
  }
  async cancel(id: string): Promise<void> {
    const reply = await send(this.base, 'POST', `/job/${id}/cancel`, { headers: this.auth });
    if (reply.status !== 202) throw new Error(`cancel ${id}: ${reply.status} ${reply.body}`);
  }
}
