// The reference and the guides as the reference server serves them: /docs redirects to /docs/ (where the
// reference's relative links to guides/ resolve), each page answers compressed as Accept-Encoding asks (the
// reference was sent as 2.6 MB of identity), with Vary and an ETag per encoding, and nothing else under /docs
// is served. Bytes are read through node:http, which does not decode them as fetch would.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/generated.ts';
import { guideNames } from '../../scripts/guides.ts';
import type { Running } from '../../server/src/start/main.ts';
import { startTestServer } from '../../server/test/support/server.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: Running;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject).end();
  });
}

const decode = (answer: Answer) => {
  const coding = answer.headers['content-encoding'];
  return (coding === 'br' ? brotliDecompressSync(answer.body) : coding === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8');
};

const reference = readFileSync(join(root, 'docs/index.html'), 'utf8');
const guide = (name: string) => readFileSync(join(root, `docs/guides/${name}.html`), 'utf8');

describe('GET /docs', () => {
  it('redirects to /docs/, keeping the query', async () => {
    const bare = await get('/docs');
    expect([bare.status, bare.headers.location]).toEqual([301, '/docs/']);
    expect((await get('/docs?x=1')).headers.location).toBe('/docs/?x=1');
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['identity', 'identity'],
    ['', 'identity'],
  ])('Accept-Encoding "%s" is answered with %s, the page itself', async (accept, coding) => {
    const answer = await get('/docs/', { 'accept-encoding': accept });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding'] ?? 'identity').toBe(coding);
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(decode(answer)).toBe(reference);
  });

  it('sends the reference compressed to under a third of its 2.6 MB', async () => {
    const plain = await get('/docs/');
    const compressed = await get('/docs/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBe(Buffer.byteLength(reference));
    expect(compressed.body.length).toBeLessThan(plain.body.length / 3);
    expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
  });

  it('answers 304 to a matching If-None-Match, per encoding', async () => {
    const br = await get('/docs/', { 'accept-encoding': 'br' });
    const gzip = await get('/docs/', { 'accept-encoding': 'gzip' });
    expect(br.headers.etag).not.toBe(gzip.headers.etag);
    expect((await get('/docs/', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string })).status).toBe(304);
    expect((await get('/docs/', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag as string })).status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const head = await get('/docs/', { 'accept-encoding': 'br' }, 'HEAD');
    expect([head.status, head.headers['content-encoding'], head.body.length]).toEqual([200, 'br', 0]);
  });

  it('serves the same page at /docs/index.html, where the guides link back to it', async () => {
    expect(decode(await get('/docs/index.html', { 'accept-encoding': 'gzip' }))).toBe(reference);
  });
});

describe('GET /docs/guides/', () => {
  it.each(guideNames)('serves %s, with .html and without, compressed', async (name) => {
    for (const path of [`/docs/guides/${name}.html`, `/docs/guides/${name}`]) {
      const answer = await get(path, { 'accept-encoding': 'br' });
      expect([answer.status, answer.headers['content-encoding'], answer.headers['content-type']]).toEqual([200, 'br', 'text/html; charset=utf-8']);
      expect(decode(answer)).toBe(guide(name));
    }
  });

  it.each(['/docs/guides/nope', '/docs/guides/', '/docs/guides/..%2f..%2fpackage.json', '/docs/guides/errors.md', '/docs/errors.md', '/DOCS/', '/docs//'])(
    '%s is not served: 404 not_found',
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body.toString()).code).toBe('not_found');
    },
  );

  // The fuzz campaign found OPTIONS /docs/ answered 200 "GET, HEAD" by Express's router, which the contract's
  // conventions do not allow for a path without operations.
  it.each([['OPTIONS', '/docs/'], ['OPTIONS', '/docs'], ['POST', '/docs/guides/errors'], ['DELETE', '/docs/index.html']])(
    '%s %s goes to the routing of the contract: 404 not_found, as for /openapi.yaml',
    async (method, path) => {
      const answer = await get(path, {}, method);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body.toString()).code).toBe('not_found');
    },
  );
});
