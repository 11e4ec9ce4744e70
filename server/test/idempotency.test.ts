// Idempotency-Key on POST /problem/{problem_id} and POST /data_file (issue 11, section 5): a submit whose
// answer was lost (a crash, a dropped connection) and is retried with the same key answers the first job
// instead of starting a second one. Before, every retry created a job. Run on both databases.
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { rawRequest } from './support/raw-http.ts';
import { backends, Client, type Reply, sixNodes, sixNodesEdgeList } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const keyed = (key: string, extra: Record<string, string> = {}) => ({ 'idempotency-key': key, ...extra });
let counter = 0;
const freshKey = () => `test-key-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`;

describe.each(await backends())('on %s', (_name, backend) => {
  // Workers 0: jobs stay PENDING, so the active-job cap below is reached and stays reached.
  const jes = sharedServer({ JES_WORKERS: '0', JES_MAX_ACTIVE_JOBS: '5' }, { users: ['alice', 'bob'], backend });

  const start = (key: string, input: unknown = sixNodes, query = '') =>
    jes.alice.request('POST', `/problem/maxcut${query}`, { json: input, headers: keyed(key) });
  const jobCount = async (client: Client) => (await client.get('/job?limit=100')).body.ids.length as number;
  const upload = (client: Client, key: string, text: string, name: string): Promise<Reply> => {
    const form = new FormData();
    form.set('file', new Blob([text]), name);
    form.set('problem_id', 'maxcut');
    form.set('name', name);
    return client.request('POST', '/data_file', { body: form, headers: keyed(key) });
  };

  const cancelAll = async (client: Client) => {
    const { ids } = (await client.get('/job?status=PENDING&limit=100')).body as { ids: string[] };
    await Promise.all(ids.map((id) => client.post(`/job/${id}/cancel`)));
  };

  it('the same key and request answer the first job again, marked replayed, and start nothing', async () => {
    const before = await jobCount(jes.alice);
    const key = freshKey();
    const first = await start(key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await start(key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // The draft's quoted form names the same key.
    const quoted = await start(`"${key}"`);
    expect(quoted.body.job).toBe(first.body.job);
    expect(quoted.headers.get('idempotent-replayed')).toBe('true');
    expect(await jobCount(jes.alice)).toBe(before + 1);
    await cancelAll(jes.alice);
  });

  it('the same key with another body, query or use case answers 422 idempotency_key_reused', async () => {
    const key = freshKey();
    expect((await start(key)).status).toBe(200);
    const other = { ...sixNodes, adj_matrix: sixNodes.adj_matrix.map((row) => row.map((w) => w * 2)) };
    expectProblem(await start(key, other), 422, 'idempotency_key_reused');
    expectProblem(await start(key, sixNodes, '?time_limit_seconds=3'), 422, 'idempotency_key_reused');
    // The same JSON with other spacing is another request: the body is compared byte for byte.
    const spaced = await jes.alice.request('POST', '/problem/maxcut', {
      body: ` ${JSON.stringify(sixNodes)}`,
      headers: keyed(key, { 'content-type': 'application/json' }),
    });
    expectProblem(spaced, 422, 'idempotency_key_reused');
    // A use case that does not exist is refused before the key is looked at.
    expectProblem(
      await jes.alice.request('POST', '/problem/tsp', { json: sixNodes, headers: keyed(key) }),
      404,
      'problem_not_found',
    );
    await cancelAll(jes.alice);
  });

  it('keys belong to their user, and a different key starts a new job', async () => {
    const key = freshKey();
    const mine = await start(key);
    const bobs = await jes.bob.request('POST', '/problem/maxcut', { json: sixNodes, headers: keyed(key) });
    expect(bobs.status).toBe(200);
    expect(bobs.headers.get('idempotent-replayed')).toBeNull();
    expect(bobs.body.job).not.toBe(mine.body.job);
    const another = await start(freshKey());
    expect(another.body.job).not.toBe(mine.body.job);
    await Promise.all([cancelAll(jes.alice), cancelAll(jes.bob)]);
  });

  it('a refused request is not remembered: corrected, it may be sent again with the same key', async () => {
    const key = freshKey();
    expectProblem(await start(key, sixNodes, '?solver=nope'), 404, 'solver_not_found');
    const corrected = await start(key);
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    await cancelAll(jes.alice);
  });

  it('a replay answers even when the user has reached the active-job cap', async () => {
    const keys = Array.from({ length: 5 }, freshKey);
    const jobs = [];
    for (const key of keys) jobs.push((await start(key)).body.job);
    expectProblem(await start(freshKey()), 429, 'too_many_active_jobs');
    const replay = await start(keys[0]!);
    expect(replay.status).toBe(200);
    expect(replay.body.job).toBe(jobs[0]);
    await cancelAll(jes.alice);
  });

  it('concurrent requests with one key start one job', async () => {
    const before = await jobCount(jes.alice);
    const key = freshKey();
    const replies = await Promise.all(Array.from({ length: 6 }, () => start(key)));
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(replies.map((r) => r.body.job)).size).toBe(1);
    expect(replies.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await jobCount(jes.alice)).toBe(before + 1);
    await cancelAll(jes.alice);
  });

  it('a key older than 24 hours counts as absent', async () => {
    const key = freshKey();
    const first = (await start(key)).body.job;
    await jes.server.db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE owner = 'alice' AND key = $1`,
      [key],
    );
    const later = await start(key, { ...sixNodes, num_nodes: 6 }, '?time_limit_seconds=2');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.job).not.toBe(first);
    await cancelAll(jes.alice);
  });

  it.each([
    ['empty', ''],
    ['not ASCII', 'clé'],
    ['a control character', 'a\tb'],
    ['256 characters', 'k'.repeat(256)],
    ['256 characters, quoted', `"${'k'.repeat(256)}"`],
    ['an empty quoted string', '""'],
  ])('a key that is %s answers 400', async (_what, key) => {
    expectProblem(await start(key), 400, 'invalid_request');
  });

  it('a key of 255 characters is taken quoted as bare (the quotes once counted towards its 255)', async () => {
    const key = `${freshKey()}${'k'.repeat(255)}`.slice(0, 255);
    const quoted = await start(`"${key}"`);
    expect(quoted.status).toBe(200);
    const bare = await start(key);
    expect([bare.body.job, bare.headers.get('idempotent-replayed')]).toEqual([quoted.body.job, 'true']);
    await cancelAll(jes.alice);
  });

  it('two Idempotency-Key headers answer 400 (Node joined them into one key, "dupA, dupB")', async () => {
    const reply = await rawRequest(jes.url, {
      method: 'POST',
      path: '/problem/maxcut',
      headers: {
        authorization: `Bearer ${jes.alice.token}`,
        'content-type': 'application/json',
        'idempotency-key': ['dupA', 'dupB'],
      },
      body: JSON.stringify(sixNodes),
    });
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body.errors).toEqual([{ pointer: '/header/idempotency-key', detail: 'is sent 2 times' }]);
  });

  it('uploads: the same key replays the first answer; another file under it answers 422', async () => {
    const key = freshKey();
    const text = `${sixNodesEdgeList}# ${key}\n`;
    const first = await upload(jes.alice, key, text, 'idem.txt');
    expect(first.status).toBe(201);
    const again = await upload(jes.alice, key, text, 'idem.txt');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectProblem(await upload(jes.alice, key, text, 'renamed.txt'), 422, 'idempotency_key_reused');
    expectProblem(await upload(jes.alice, key, `${text}# other\n`, 'idem.txt'), 422, 'idempotency_key_reused');
    // Without the key (or with another) the same bytes answer 200 with the existing record, as before.
    const plain = await upload(jes.alice, freshKey(), text, 'idem.txt');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('idempotent-replayed')).toBeNull();
    // The refused uploads left no chunks behind (discarded once each response has ended, so asked until then;
    // this server runs no workers, so the file itself stays PROCESSING: validation is a worker's task).
    const leftovers = () =>
      jes.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM data_file_chunks WHERE id LIKE 'upload:%'`);
    await expect.poll(async () => (await leftovers())[0]!.n, { timeout: 10_000 }).toBe(0);
  });
});
