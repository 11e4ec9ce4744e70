// Every in-memory cache is bounded by bytes, not only by entries (issue 11, section 6): a few thousand jobs with
// large outputs kept by count alone held hundreds of MB. Filled past its budget, a cache stays under it and
// keeps what was used last.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { boundedCache } from '../src/core/bounded-cache.ts';
import { serializeFrozenOnce } from '../src/http/frozen-json.ts';
import { JobEvents } from '../src/jobs/events.ts';
import { JobViews } from '../src/jobs/views.ts';
import { rawRequest } from './support/raw-http.ts';
import { randomMatrix } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

describe('boundedCache', () => {
  it('evicts the least recently used entries past its byte budget, whatever their count', () => {
    const cache = boundedCache<string, string>({
      maxEntries: 1000,
      maxBytes: 100,
      sizeOf: (key, value) => key.length + value.length,
    });
    cache.set('a', 'x'.repeat(29));
    cache.set('b', 'x'.repeat(29));
    cache.set('c', 'x'.repeat(29));
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.set('d', 'x'.repeat(29));
    expect(cache.bytes).toBeLessThanOrEqual(100);
    expect([...['a', 'b', 'c', 'd']].filter((k) => cache.get(k) !== undefined)).toEqual(['a', 'c', 'd']);
    cache.set('huge', 'x'.repeat(500));
    expect(cache.get('huge')).toBeUndefined(); // larger than the whole budget: not kept at all
    expect(cache.bytes).toBeLessThanOrEqual(100);
  });

  it('also keeps its entry bound, replaces an entry in place, and forgets on delete', () => {
    const cache = boundedCache<number, string>({ maxEntries: 3, maxBytes: 1e6, sizeOf: (_k, v) => v.length });
    for (let i = 0; i < 10; i++) cache.set(i, 'v');
    expect([cache.size, cache.get(9), cache.get(6)]).toEqual([3, 'v', undefined]);
    cache.set(9, 'longer');
    expect(cache.bytes).toBe(2 + 6);
    cache.delete(9);
    expect([cache.size, cache.bytes]).toEqual([2, 2]);
  });

  // Using the most recently used key again moves nothing; the order must still be right after another key is set, or
  // the newest is deleted and set again. Which keys survive an eviction shows the order (get() itself reorders).
  it('keeps the order of use when the newest key is used again, after a set, a delete and a clear', () => {
    const cache = boundedCache<string, number>({ maxEntries: 3, maxBytes: 1e6, sizeOf: () => 1 });
    const kept = (keys: string[]) => keys.filter((k) => cache.get(k) !== undefined);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a'); // b, a
    cache.set('c', 3); // b, a, c: c is now the newest, not a
    cache.get('a'); // b, c, a
    cache.get('a');
    cache.set('d', 4); // b evicted: c, a, d
    cache.set('e', 5); // c evicted: a, d, e
    expect(kept(['a', 'b', 'c', 'd', 'e'])).toEqual(['a', 'd', 'e']); // now a, d, e in that order
    cache.delete('e'); // the newest, gone: a, d
    cache.get('a'); // d, a
    cache.set('e', 6); // d, a, e
    cache.set('f', 7); // d evicted
    expect(kept(['a', 'd', 'e', 'f'])).toEqual(['a', 'e', 'f']);
    cache.clear();
    expect([cache.get('f'), cache.size]).toEqual([undefined, 0]);
  });
});

// A frozen answer is written as its text (up to 16 KiB) or its bytes, made once (http/frozen-json.ts): the same
// status, headers and bytes as Express's own res.json of the same object, whatever its characters, and 304 to its
// ETag.
describe('serializeFrozenOnce', () => {
  const freeze = <T>(value: T): T => {
    if (value && typeof value === 'object') for (const inner of Object.values(Object.freeze(value))) freeze(inner);
    return value;
  };
  const small = { text: 'é × 😀 \u{10FFFF}', n: [1, 2.5, -3] };
  const large = { rows: Array.from({ length: 2000 }, (_, i) => `ligne ${i} é`) };
  const frozen = { small: freeze(structuredClone(small)), large: freeze(structuredClone(large)) };
  let base = '';
  let close = () => {};
  beforeAll(async () => {
    const app = express();
    serializeFrozenOnce(app);
    app.get('/frozen/:which', (req, res) => res.json(frozen[req.params.which as 'small' | 'large']));
    app.get('/plain/:which', (req, res) => res.json(structuredClone({ small, large }[req.params.which as 'small'])));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it.each(['small', 'large'])('answers a %s frozen body as Express answers the same object', async (which) => {
    expect(Buffer.byteLength(JSON.stringify(frozen.large))).toBeGreaterThan(16 * 1024);
    const get = (kind: string, headers: Record<string, string> = {}) =>
      rawRequest(base, { method: 'GET', path: `/${kind}/${which}`, headers });
    const [mine, again, theirs] = [await get('frozen'), await get('frozen'), await get('plain')];
    for (const reply of [mine, again]) {
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(theirs.body);
      for (const name of ['content-type', 'content-length', 'etag'])
        expect([name, reply.headers[name]]).toEqual([name, theirs.headers[name]]);
    }
    const conditional = await get('frozen', { 'if-none-match': String(theirs.headers.etag) });
    expect([conditional.status, conditional.body, conditional.headers['content-type']]).toEqual([
      304,
      undefined,
      undefined,
    ]);
  });
});

describe('JobViews', () => {
  const jes = sharedServer({ JES_WORKERS: '1' });
  const events = new JobEvents();
  beforeAll(() => events.start(jes.server.db));
  afterAll(() => events.stop());

  it('stays under its byte budget when filled with more ended jobs than fit (it was bounded by count only)', async () => {
    const ids: string[] = [];
    // 40-node jobs: each view holds a partition of 40 and the solver's figures, some hundreds of bytes.
    for (let i = 0; i < 12; i++)
      ids.push(
        await jes.alice.start(
          { num_nodes: 40, adj_matrix: randomMatrix(40, i) },
          '?solver=local-search&time_limit_seconds=0.05',
        ),
      );
    for (const id of ids) await jes.alice.waitFor(id);
    const budget = 4000;
    const views = new JobViews(events, { maxBytes: budget });
    for (const id of ids) expect((await views.read(jes.server.db, 'alice', id))?.job.id).toBe(id);
    expect(views.bytes).toBeGreaterThan(0);
    expect(views.bytes).toBeLessThanOrEqual(budget);
    expect(views.size).toBeLessThan(ids.length);
  });

  // A finished job's answer is made, serialized and hashed once (http/frozen-json.ts): what is sent again must be
  // the same bytes with the ETag of those bytes, as Express would make them, and a conditional GET still 304.
  it('answers a finished job with the same bytes and their own ETag every time, and 304 to If-None-Match', async () => {
    const id = await jes.alice.start({ num_nodes: 6, adj_matrix: randomMatrix(6, 1) }, '?solver=exact');
    await jes.alice.waitFor(id);
    const get = () => fetch(`${jes.url}/job/${id}`, { headers: { authorization: `Bearer ${jes.alice.token}` } });
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await get();
      answers.push({
        status: res.status,
        type: res.headers.get('content-type'),
        etag: res.headers.get('etag'),
        text: await res.text(),
      });
    }
    const bytes = Buffer.from(answers[0]!.text);
    const hash = createHash('sha1').update(bytes).digest('base64').slice(0, 27);
    expect(answers[0]).toMatchObject({
      status: 200,
      type: 'application/json; charset=utf-8',
      etag: `W/"${bytes.length.toString(16)}-${hash}"`,
    });
    expect(JSON.parse(answers[0]!.text).job[id].status).toBe('FINISHED');
    expect(answers.slice(1)).toEqual([answers[0], answers[0]]);
    // Through node:http: fetch adds Cache-Control: no-cache to a request with If-None-Match, which asks for the body.
    const conditional = await rawRequest(jes.url, {
      method: 'GET',
      path: `/job/${id}`,
      headers: { authorization: `Bearer ${jes.alice.token}`, 'if-none-match': answers[0]!.etag! },
    });
    expect([conditional.status, conditional.body]).toEqual([304, undefined]);
  });
});
