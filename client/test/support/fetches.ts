// Wrappers around the real `fetch` for tests: they record what was sent and received, or change one
// header on the way out (a refused token, a proxy that drops `Prefer`). The server is always the real one.

export interface Exchange {
  method: string;
  path: string;
  /** performance.now() when it was sent: the tests compare gaps, which a wall-clock step must not bend. */
  sentAt: number;
  status: number;
  headers: Headers;
  authorization: string | null;
}

/** A fetch that records every exchange; `rewrite` may change the request before it is sent. */
export function recordingFetch(rewrite: (request: Request) => Request = (request) => request) {
  const exchanges: Exchange[] = [];
  const fetcher = async (input: Request): Promise<Response> => {
    const request = rewrite(input);
    const sentAt = performance.now();
    const response = await fetch(request);
    exchanges.push({
      method: request.method,
      path: new URL(request.url).pathname,
      sentAt,
      status: response.status,
      headers: response.headers,
      authorization: request.headers.get('authorization'),
    });
    return response;
  };
  return { fetch: fetcher, exchanges };
}

/** The request with `name` set to `value` (or removed when `value` is undefined). */
export function withHeader(request: Request, name: string, value: string | undefined): Request {
  const copy = new Request(request);
  if (value === undefined) copy.headers.delete(name);
  else copy.headers.set(name, value);
  return copy;
}

/** A well-formed HS256 JWT that no server signed: the service answers 401 `invalid_token`. */
export const forgedToken = [
  Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url'),
  Buffer.from(
    JSON.stringify({
      sub: 'alice',
      env: 'production',
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 3600,
      jti: 'forged',
    }),
  ).toString('base64url'),
  Buffer.from('not the signature').toString('base64url'),
].join('.');

/**
 * A token the server accepts (HS256 by `secret`, the claims it issues) that expires `seconds` from now: a stream opened
 * with it ends at its expiry, and the next request is refused with invalid_token.
 */
export async function shortLivedToken(user: string, secret: string, seconds: number): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: user, env: 'production', iat: now, exp: now + seconds, jti: `short-${now}` })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
