// The attack benchmark (`npm run bench:attacks`, or `node bench/attacks.ts [--seconds N] [--server DIR]`): how long a
// health probe waits while one hostile client does its worst (issue 27, sections 3 to 5). For each attack the server
// (the embedded database on disk, default settings but its users) is started afresh; a probe from another address
// asks GET /healthz every 250 ms on a new connection (10 s at most), and the p50 and worst of its waits are printed,
// with the probes that got no answer at all. --server runs another checkout's server (to measure a version before).
//
// The attacks: 1,020 idle sockets from one address, reopened as they are closed; 300 clients each refused (no
// token) while trickling its body; 998 long polls of one user; 20 reads at a time of a 4 MiB inline job's input;
// 200 reads of a 60 MB data file's input that never take a byte. The attacker speaks from 127.0.0.2.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Api, json, send } from './support/client.ts';
import { bigBody } from './support/inputs.ts';
import { node } from '../test/support/child-server.ts';
import { serverEnv, startProcess, stopAll } from './support/processes.ts';
import { root } from './support/settings.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const seconds = Number(argument('--seconds') ?? 15);
const serverRoot = resolve(argument('--server') ?? root);
const attacker = '127.0.0.2';

interface Probes {
  waits: number[];
  failed: number;
}

/** GET /healthz every 250 ms, each on its own connection, until `stop`; a probe unanswered in 10 s failed. */
async function probe(base: string, stop: AbortSignal): Promise<Probes> {
  const { port } = new URL(base);
  const result: Probes = { waits: [], failed: 0 };
  const pending: Promise<void>[] = [];
  while (!stop.aborted) {
    pending.push(
      new Promise<void>((done) => {
        const started = performance.now();
        const req = request({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 10_000 }, (res) => {
          res.resume().on('end', () => {
            if (res.statusCode === 200) result.waits.push(performance.now() - started);
            else {
              result.failed++;
              if (process.env.DEBUG_PROBES) console.error('probe', res.statusCode);
            }
            done();
          });
        });
        const fail = (e?: unknown) => {
          if (process.env.DEBUG_PROBES) console.error('probe failed', String(e));
          result.failed++;
          req.destroy();
          done();
        };
        req.on('timeout', fail).on('error', fail).end();
      }),
    );
    await sleep(250);
  }
  await Promise.all(pending);
  return result;
}

/** A connection from the attacker's address; resolves once connected (or refused at once). */
function attackerSocket(base: string): Promise<Socket> {
  const { port } = new URL(base);
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: attacker });
    socket.on('error', () => {});
    socket.once('connect', () => done(socket)).once('close', () => done(socket));
  });
}

/** An attack: what it needs made first (a job), then the attack itself, until `stop`. */
interface Attack {
  prepare?(base: string, api: Api): Promise<string>;
  run(base: string, api: Api, stop: AbortSignal, job: string): Promise<void>;
}

const attacks: Record<string, Attack> = {
  'idle sockets (1,020, reopened)': {
    async run(base, _api, stop) {
      const hold = async () => {
        while (!stop.aborted) {
          const socket = await attackerSocket(base);
          // Refused (closed by the server at once) or held until the server or the end of the attack closes it.
          if (socket.closed || stop.aborted) socket.destroy();
          else
            await new Promise((done) => {
              socket.once('close', done);
              stop.addEventListener('abort', () => socket.destroy(), { once: true });
            });
          await sleep(250); // reopened at once would spin this process, on the same cores as the server
        }
      };
      await Promise.all(Array.from({ length: 1020 }, hold));
    },
  },

  'bodies trickled after their 401 (300)': {
    async run(base, _api, stop) {
      const trickle = async () => {
        while (!stop.aborted) {
          const socket = await attackerSocket(base);
          if (socket.closed || stop.aborted) {
            socket.destroy();
            await sleep(250);
            continue;
          }
          socket.write(
            'POST /problem/maxcut HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
          );
          const timer = setInterval(() => socket.writable && socket.write(' '), 2000);
          await new Promise((done) => {
            socket.once('close', done);
            stop.addEventListener('abort', () => socket.destroy(), { once: true });
          });
          clearInterval(timer);
        }
      };
      await Promise.all(Array.from({ length: 300 }, trickle));
    },
  },

  'long polls of one user (998)': {
    prepare: (_base, api) =>
      api.start(
        JSON.stringify({
          num_nodes: 3,
          adj_matrix: [
            [0, 1, 1],
            [1, 0, 1],
            [1, 1, 0],
          ],
        }),
        '?solver=local-search&time_limit_seconds=600',
      ),
    async run(base, api, stop, job) {
      const poll = async () => {
        while (!stop.aborted) {
          await new Promise<void>((done) => {
            const req = request(
              {
                host: '127.0.0.1',
                port: new URL(base).port,
                path: `/job/${job}`,
                localAddress: attacker,
                agent: false,
                headers: { ...api.auth, prefer: 'wait=60' },
              },
              (res) => res.resume().on('end', () => done()),
            );
            req.on('error', () => setTimeout(done, 100));
            stop.addEventListener('abort', () => req.destroy(), { once: true });
            req.end();
          });
        }
      };
      await Promise.all(Array.from({ length: 998 }, poll));
    },
  },

  "a 4 MiB inline job's input, 20 reads at a time": {
    async prepare(_base, api) {
      const job = await api.start(bigBody().body, '?solver=local-search&time_limit_seconds=0.1');
      await api.waitFor(job, (status) => status === 'FINISHED');
      return job;
    },
    async run(base, api, stop, job) {
      const read = async () => {
        while (!stop.aborted) await send(base, 'GET', `/job/${job}/input`, { headers: api.auth }).catch(() => {});
      };
      await Promise.all(Array.from({ length: 20 }, read));
    },
  },

  "a 60 MB data file's input, 200 reads never taken": {
    async prepare(base, api) {
      const n = 100_000;
      const lines: string[] = [];
      let size = 0;
      for (let k = 0; size < 60 * 1024 * 1024; k++) {
        const line = `${(k % n) + 1} ${((k * 7919 + 13) % n) + 1 === (k % n) + 1 ? ((k + 1) % n) + 1 : ((k * 7919 + 13) % n) + 1} 1\n`;
        lines.push(line);
        size += line.length;
      }
      const file = Buffer.from(`${n} ${lines.length}\n${lines.join('')}`);
      const boundary = 'jes-attack-bench';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="problem_id"\r\n\r\nmaxcut\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nbig.txt\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const uploaded = json(
        await send(base, 'POST', '/data_file', {
          headers: { ...api.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body,
        }),
      );
      // Validated and run first: only the reads are measured.
      const job = await api.start(
        JSON.stringify({ data_file_identifier: uploaded.data_file_identifier }),
        '?solver=local-search&time_limit_seconds=0.1',
      );
      await api.waitFor(job, (status) => status === 'FINISHED');
      return job;
    },
    async run(base, api, stop, job) {
      const requests = Array.from({ length: 200 }, () =>
        request(
          {
            host: '127.0.0.1',
            port: new URL(base).port,
            path: `/job/${job}/input`,
            localAddress: attacker,
            agent: false,
            headers: api.auth,
          },
          (res) => res.pause(),
        ).on('error', () => {}),
      );
      for (const req of requests) req.end();
      await new Promise((done) => stop.addEventListener('abort', done, { once: true }));
      for (const req of requests) req.destroy();
    },
  },
};

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) =>
  Number.isNaN(value) ? '—' : value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;

console.log(`health probes during each attack, ${seconds} s each; server from ${serverRoot}\n`);
console.log('| attack | probes answered | p50 | worst |\n|---|---|---|---|');
const only = argument('--only');
for (const [name, attack] of Object.entries(attacks).filter(([name]) => !only || name.includes(only))) {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'jes-attack-')), 'data');
  const server = await startProcess(
    name,
    node(join(serverRoot, 'server/src/start/cli.ts')),
    serverEnv({ JES_DATA_DIR: dataDir, JES_RATE_LIMITS: '', JES_MAX_ACTIVE_JOBS: '' }),
  );
  try {
    const api = new Api(server.url);
    await api.login();
    const job = (await attack.prepare?.(server.url, api)) ?? '';
    const stop = new AbortController();
    const attacking = attack.run(server.url, api, stop.signal, job);
    await sleep(2000); // the attack takes hold
    const probing = probe(server.url, AbortSignal.timeout(seconds * 1000));
    const probes = await probing;
    stop.abort();
    await attacking.catch(() => {});
    const total = probes.waits.length + probes.failed;
    console.log(
      `| ${name} | ${probes.waits.length} of ${total} | ${ms(percentile(probes.waits, 50))} | ${probes.failed ? 'no answer' : ms(Math.max(...probes.waits))} |`,
    );
  } finally {
    await server.stop();
  }
}
await stopAll();
