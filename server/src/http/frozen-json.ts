// A frozen body is answered as it was the first time. The app freezes (deeply) an answer it gives many times and
// that cannot change, such as a finished job's: res.json turns it into bytes and their ETag once, rather than
// serializing and hashing it on every request, and the response validator (patches/) checks it once.
import type { Express, Response } from 'express';

export function serializeFrozenOnce(app: Express): void {
  const json = app.response.json;
  const serialized = new WeakMap<object, { bytes: Buffer; etag: string | undefined }>();
  app.response.json = function frozenJson(this: Response, body: unknown) {
    if (typeof body !== 'object' || body === null || !Object.isFrozen(body)) return json.call(this, body);
    let known = serialized.get(body);
    if (!known) {
      // As Express's own res.json and res.send make them (the app sets no JSON replacer, spacing or escaping).
      const bytes = Buffer.from(JSON.stringify(body), 'utf8');
      const etag: unknown = (app.get('etag fn') as ((body: Buffer) => string) | undefined)?.(bytes);
      serialized.set(body, (known = { bytes, etag: typeof etag === 'string' ? etag : undefined }));
    }
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
    if (known.etag && !this.get('ETag')) this.set('ETag', known.etag);
    return this.send(known.bytes);
  };
}
