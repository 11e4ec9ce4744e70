// Requests fetch will not send (TRACE, a body that never comes, bytes as given) through node:http, for the
// tests that play a hostile client.
import { request } from 'node:http';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** Milliseconds from sending the headers to the answer's status line. */
  ms: number;
}

export interface RawOptions {
  method: string;
  path: string;
  /** An array sends the header once per value. */
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  /** Send the headers and this many bytes of the body, then wait for the answer without ending the request. */
  holdBodyAfter?: number;
}

export function rawRequest(base: string, options: RawOptions): Promise<RawReply> {
  const url = new URL(options.path, base);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: options.method, headers: options.headers ?? {} }, (res) => {
      const ms = performance.now() - started;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {}
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (options.holdBodyAfter !== undefined) {
      req.flushHeaders();
      if (options.body && options.holdBodyAfter > 0)
        req.write(Buffer.from(options.body).subarray(0, options.holdBodyAfter));
      return;
    }
    req.end(options.body);
  });
}
