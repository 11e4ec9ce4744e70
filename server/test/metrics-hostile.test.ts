// /metrics under a hostile client (issue 33): 100,000 distinct bad requests (unknown paths, methods the contract
// does not have, junk headers and tokens, odd hosts) leave the number of series where a first few hundred of the
// same kinds put it. Every label value comes from a bounded list (the contract's operationIds, its methods, the
// statuses the server sets), never from the path, a header or a token. The requests go pipelined on a few
// keep-alive connections to a server in a process of its own, so the 100,000 take seconds.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, node, serverCli, startChild } from '../../test/support/child-server.ts';
import { scrape } from './support/metrics-text.ts';
import { freshPostgres, testEnv } from './support/server.ts';

// PostgreSQL when there is one (a server starts there in a fraction of the embedded database's time).
const database = await freshPostgres();

/** Methods HTTP parsers know that the contract has nowhere (and some it has, on paths that lack them). */
const methods = ['PROPFIND', 'MKCOL', 'PURGE', 'REPORT', 'SEARCH', 'LOCK', 'PATCH', 'TRACE', 'PUT', 'DELETE'];

/** The `i`th bad request: no two alike. */
function badRequest(i: number, host: string): string {
  const junk = `X-Junk-${i}: ${i.toString(36)}\r\nX-Request-Id: junk-${i}\r\nAccept-Encoding: x-${i}\r\n`;
  switch (i % 5) {
    case 0:
      return `GET /no-such-${i}?q=${i} HTTP/1.1\r\nHost: ${host}\r\n${junk}\r\n`;
    case 1:
      return `${methods[i % methods.length]} /job/j${i} HTTP/1.1\r\nHost: ${host}\r\n${junk}\r\n`;
    case 2:
      return `GET /job/j${i} HTTP/1.1\r\nHost: h${i}.example\r\nAuthorization: Bearer t${i}.${i}.${i}\r\n${junk}\r\n`;
    case 3:
      return `GET /docs/guides/no-${i} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: bot/${i}\r\n${junk}\r\n`;
    default:
      return `DELETE /metrics/${i} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Basic ${i}\r\n${junk}\r\n`;
  }
}

/**
 * Sends requests `from` to `to` over `connections` keep-alive connections, each its share pipelined in one go and
 * the last asking to close; resolves with the count of answers by status class once every connection has ended.
 */
async function flood(url: string, from: number, to: number, connections = 8): Promise<Record<string, number>> {
  const { hostname, port, host } = new URL(url);
  const statuses: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: connections }, (_, c) => {
      const requests: string[] = [];
      for (let i = from + c; i < to; i += connections) requests.push(badRequest(i, host));
      requests.push(`GET /last HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      return new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), hostname);
        // Status lines counted by their class, across chunk boundaries: the last 9 characters, too few for a whole
        // `HTTP/1.1 4`, are looked at again with the next chunk.
        let carried = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          const text = carried + chunk;
          for (
            let at = text.indexOf('HTTP/1.1 ');
            at >= 0 && at + 9 < text.length;
            at = text.indexOf('HTTP/1.1 ', at + 9)
          ) {
            const key = `${text[at + 9]}xx`;
            statuses[key] = (statuses[key] ?? 0) + 1;
          }
          carried = text.slice(-9);
        });
        socket.on('end', resolve);
        socket.on('error', reject);
        socket.write(requests.join(''));
      });
    }),
  );
  return statuses;
}

/** The sample lines of a scrape: those of our metrics, and all of them. */
async function series(url: string): Promise<{ jes: string[]; all: number }> {
  const { text } = await scrape(url);
  const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  return {
    jes: lines.filter((line) => line.startsWith('jes_')).map((line) => line.slice(0, line.lastIndexOf(' '))),
    all: lines.length,
  };
}

const cpuSeconds = async (url: string) =>
  Number(/^process_cpu_seconds_total (\S+)$/m.exec((await scrape(url)).text)?.[1]);

describe('metrics under 100,000 distinct bad requests', () => {
  let server: ChildServer;
  beforeAll(async () => {
    const env = 'skip' in database ? {} : { DATABASE_URL: database.url };
    server = await startChild(node(serverCli), { env: testEnv({ ...env, JES_WORKERS: '0', LOG_LEVEL: 'silent' }) });
  });
  afterAll(async () => {
    await server?.stop();
    if (!('skip' in database)) await database.drop();
  });

  // 100,000 requests are a fixed amount of work, which beside a full run's other files (2 cores, PostgreSQL there)
  // ran out of the default 60 s.
  it('keeps the series bounded', { timeout: 180_000 }, async () => {
    const metrics = `${server.url}/metrics`;
    // A first round of every kind makes the series these requests can make (and a scrape, its own).
    await scrape(metrics);
    expect(await flood(server.url, 0, 500)).toEqual({ '4xx': 508 });
    const before = await series(metrics);
    const cpu = await cpuSeconds(metrics);
    const started = performance.now();
    const answered = await flood(server.url, 500, 100_500);
    const seconds = (performance.now() - started) / 1000;
    expect(answered).toEqual({ '4xx': 100_008 });
    const after = await series(metrics);
    expect(after.jes).toEqual(before.jes);
    // Node's own metrics may add a few (a kind of garbage collection seen for the first time), no more.
    expect(after.all - before.all).toBeLessThan(10);
    const used = (await cpuSeconds(metrics)) - cpu;
    console.log(
      `100,000 bad requests in ${seconds.toFixed(1)} s (the server's CPU: ${used.toFixed(1)} s); ${after.jes.length} jes_ series, ${after.all} in all`,
    );
  });
});
