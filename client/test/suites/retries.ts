// Retries without duplicates (issue 11): the client sends an Idempotency-Key with every start and upload, and
// when the answer is lost on the way back (a proxy cuts the connection after the real server answered) or a
// gateway says 503, it sends the same request again with the same key: the service answers the first job
// instead of starting a second. Before, a lost answer surfaced as an error, and a caller's retry made a new job.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJesClient, type JesClient } from '../../src/index.ts';
import { type DroppingProxy, droppingProxy } from '../support/dropping-proxy.ts';
import { sixNodes, sixNodesEdgeList } from '../support/graphs.ts';
import { type Servers, users } from '../support/processes.ts';

export function retriesSuite(servers: Servers): void {
  let demo: JesClient;
  let proxy: DroppingProxy | undefined;
  beforeAll(() => {
    demo = createJesClient({ baseUrl: servers.main, username: 'demo', password: users.demo });
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** The demo user's job ids, newest first (one page is plenty here). */
  const jobIds = async () => {
    for await (const page of demo.listJobs({ limit: 100 })) return page.data!.items.map((job) => job.id);
    return [];
  };
  /** A client through `url` that records the Idempotency-Key of each request it sends. */
  const keyed = (url: string) => {
    const keys: (string | null)[] = [];
    const client = createJesClient({
      baseUrl: url,
      username: 'demo',
      password: users.demo,
      retry: { delayMs: 50 },
      fetch: (request) => {
        if (request.method === 'POST' && !request.url.endsWith('/login'))
          keys.push(request.headers.get('idempotency-key'));
        return fetch(request);
      },
    });
    return { client, keys };
  };

  describe('retries', () => {
    it('a start whose answer is lost is retried with the same key and answers the one job the server started', async () => {
      proxy = await droppingProxy(servers.main, /^POST \/problem\/maxcut/);
      const { client, keys } = keyed(proxy.url);
      const before = await jobIds();
      const started = await client.startJob('maxcut', sixNodes, { solvers: ['exact'] });
      expect(started.error).toBeUndefined();
      expect(proxy.dropped).toHaveLength(1);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(started.response.headers.get('idempotent-replayed')).toBe('true');
      const after = await jobIds();
      expect(after.filter((id) => !before.includes(id))).toEqual([started.data!.id]);
      await demo.cancelJob(started.data!.id);
    });

    it('an upload whose answer is lost is sent again with the same key (a Blob can be)', async () => {
      proxy = await droppingProxy(servers.main, /^POST \/data_file/);
      const { client, keys } = keyed(proxy.url);
      const text = `${sixNodesEdgeList}# retried upload ${Date.now()}\n`;
      const uploaded = await client.uploadDataFile({
        problemId: 'maxcut',
        file: new Blob([text]),
        name: 'retried.txt',
      });
      expect(uploaded.error).toBeUndefined();
      expect(proxy.dropped).toHaveLength(1);
      expect(keys).toEqual([keys[0], keys[0]]);
      // The first attempt created the file; the retry replays its 201, not the 200 of an upload of known bytes.
      expect(uploaded.response.status).toBe(201);
      expect(uploaded.response.headers.get('idempotent-replayed')).toBe('true');
    });

    it('a caller that retries with its own key gets the first job, even from a new client', async () => {
      const key = `caller-chosen-${Date.now()}`;
      const first = await demo.startJob('maxcut', sixNodes, { idempotencyKey: key });
      const again = await createJesClient({ baseUrl: servers.main, username: 'demo', password: users.demo }).startJob(
        'maxcut',
        sixNodes,
        { idempotencyKey: key },
      );
      expect(again.data?.id).toBe(first.data?.id);
      const other = await demo.startJob(
        'maxcut',
        { ...sixNodes, num_nodes: 6, adj_matrix: sixNodes.adj_matrix.map((row) => row.map((w) => w + 1)) },
        { idempotencyKey: key },
      );
      expect(other.error?.code).toBe('idempotency_key_reused');
      await demo.cancelJob(first.data!.id);
    });

    it('after a 503 with Retry-After, tries again with the same key; a refusal like 404 is not retried', async () => {
      let unavailable = 1;
      const keys: (string | null)[] = [];
      const client = createJesClient({
        baseUrl: servers.main,
        username: 'demo',
        password: users.demo,
        // A gateway in front of the real server, briefly unavailable.
        fetch: async (request) => {
          if (request.url.endsWith('/login')) return fetch(request);
          keys.push(request.headers.get('idempotency-key'));
          if (unavailable-- > 0) return new Response('', { status: 503, headers: { 'retry-after': '0' } });
          return fetch(request);
        },
      });
      const started = await client.startJob('maxcut', sixNodes);
      expect(started.error).toBeUndefined();
      expect(keys).toEqual([keys[0], keys[0]]);
      keys.length = 0;
      const refused = await client.startJob('maxcut', sixNodes, { solvers: ['no-such-solver'] });
      expect(refused.error?.code).toBe('solver_not_found');
      expect(keys).toHaveLength(1);
      await demo.cancelJob(started.data!.id);
    });

    it('gives up after its tries and throws the network error, as fetch does', async () => {
      proxy = await droppingProxy(servers.main, /^POST \/problem\/maxcut/, 3);
      const { client, keys } = keyed(proxy.url);
      await expect(client.startJob('maxcut', sixNodes, { retry: { tries: 3, delayMs: 10 } })).rejects.toThrow(
        TypeError,
      );
      expect(keys).toHaveLength(3);
      const [job] = await jobIds();
      if (job) await demo.cancelJob(job);
    });
  });
}
