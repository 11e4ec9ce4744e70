// A frozen body is answered as it was the first time. The app freezes (deeply) an answer it gives many times and
// that cannot change, such as a finished job's: res.json turns it into its text, length and ETag once, rather
// than serializing and hashing it on every request, and the response validator (patches/) checks it once.
//
// A small answer is written as text, in one piece with the headers: Node writes a string body after the header
// string as one write, where a Buffer body goes out as a vectored write of two parts, which cost a cached GET
// about 10 µs more of the main thread (68 µs instead of 57, the server and the load generator pinned to a core
// each; docs/performance.md). A large answer is kept as bytes, so it is not copied on every request and not held
// twice.
import type { Express, Response } from 'express';

/** Answers up to this many bytes are kept and written as text. */
const textUpTo = 16 * 1024;

interface Serialized {
  body: string | Buffer;
  length: number;
  etag: string | undefined;
}

export function serializeFrozenOnce(app: Express): void {
  const json = app.response.json;
  const serialized = new WeakMap<object, Serialized>();
  const serialize = (body: object): Serialized => {
    // As Express's own res.json and res.send make them (the app sets no JSON replacer, spacing or escaping).
    const text = JSON.stringify(body);
    const bytes = Buffer.from(text, 'utf8');
    const etag: unknown = (app.get('etag fn') as ((body: Buffer) => string) | undefined)?.(bytes);
    return {
      body: bytes.length <= textUpTo ? text : bytes,
      length: bytes.length,
      etag: typeof etag === 'string' ? etag : undefined,
    };
  };
  app.response.json = function frozenJson(this: Response, body: unknown) {
    // A 204 or 205 has no body: Express's own path strips it.
    const bodiless = this.statusCode === 204 || this.statusCode === 205;
    if (typeof body !== 'object' || body === null || !Object.isFrozen(body) || bodiless) return json.call(this, body);
    let known = serialized.get(body);
    if (!known) serialized.set(body, (known = serialize(body)));
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
    if (known.etag && !this.get('ETag')) this.set('ETag', known.etag);
    // What res.send does after it has the bytes: freshness (304 without the body's headers), HEAD without a body.
    if (this.req.fresh) {
      this.status(304).removeHeader('Content-Type');
      return this.end();
    }
    this.set('Content-Length', String(known.length));
    return this.req.method === 'HEAD' ? this.end() : this.end(known.body);
  };
}
