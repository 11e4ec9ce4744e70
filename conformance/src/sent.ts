// What each request carried in full, kept beside its Exchange (whose body is a shortened, password-free
// preview and whose secret headers are hidden) for the "Reproduce with: curl …" lines of failures and the HAR of a
// run (--har): the headers as sent, the whole body, the parts of a form, whose session token went in Authorization
// (a reproduction names secrets by variables, never by their values), and when it went out and was answered.
import type { StreamEnd } from './event-stream.ts';
import type { Exchange } from './types.ts';

export type SentPart =
  { name: string; value: string } | { name: string; filename: string; type: string; content: string };

export type SentBody = { text: string } | { form: SentPart[] } | { bytes: Uint8Array };

export interface Sent {
  /** The headers as sent, secrets included (the exchange records them hidden: given-headers.ts; the HAR redacts them: har/redact.ts). */
  headers: Record<string, string>;
  /** The user whose token the request carried (a session token, or one the check says is that user's). */
  user?: 'user' | 'user2';
  body?: SentBody;
  timing?: Timing;
}

/** When the request went out and its answer's headers came (ms since the epoch), and how an event stream's reading ended. */
export interface Timing {
  started: number;
  headers?: number;
  stream?: StreamEnd;
}

const sent = new WeakMap<Exchange, Sent>();

export function sentOf(exchange: Exchange): Sent | undefined {
  return sent.get(exchange);
}

export function recordSent(exchange: Exchange, what: Sent): void {
  sent.set(exchange, what);
}

/** The body as sent: text, a form's parts (files read), or bytes. */
export async function sentBody(body: string | Uint8Array | FormData | undefined): Promise<SentBody | undefined> {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return { text: body };
  if (body instanceof Uint8Array) return { bytes: body };
  const parts: SentPart[] = [];
  for (const [name, value] of body) {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, filename: value.name, type: value.type, content: await value.text() });
  }
  return { form: parts };
}
