// Following one of the service's event streams (GET /job/{job_id}/events, GET /events: Server-Sent Events) with
// fetch, since a browser's EventSource cannot send the Authorization header. A drop (the network, a proxy's timeout)
// is resumed after the last event's id (`last_event_id`, a query parameter, so the preflight asks for no header of
// its own), after the stream's `retry` milliseconds; the contract promises none is missed and none comes twice.
// A service without streams (one older than contract 1.7, the stateless sandbox) is told apart from a drop: the
// page then follows by long polls as before.
// (@jes/client's own stream iterators were not on its branch when this was written: once they are, this file should
// go and the pages use them.)
import type { Problem } from '@jes/client';
import { endedSession, serviceUrl, token } from './session.ts';
import { networkProblem } from './use-call.ts';

export interface StreamEvent {
  id: string;
  event: string;
  data: unknown;
}

/** How a stream stopped being followed: it ended (its job did), the service has none, or the page left. */
export type Stopped = 'ended' | 'unavailable' | 'aborted' | { problem: Problem };

export interface FollowOptions {
  /** Each event, in order; returns true when it is the last the page needs (the stream is then closed). */
  onEvent(event: StreamEvent): boolean | void;
  /** Called each time the stream is open (again): what happened before is in it from then on. */
  onOpen?(): void;
  /** Called when a drop leaves the page without news until it is resumed. */
  onDrop?(): void;
  signal: AbortSignal;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });

/** An event's data, JSON by the contract; anything else is no data (the page ignores such an event). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What reading a body tells besides its events: its `retry:` field, and its first line of the format. */
interface Told {
  retry(ms: number): void;
  /** A line of Server-Sent Events came (a stand-in that answers text/event-stream with a JSON body sends none). */
  framed(): void;
}

/** The events of one response's body as they arrive. */
async function* eventsOf(body: ReadableStream<Uint8Array>, told: Told): AsyncGenerator<StreamEvent> {
  const text = body
    .pipeThrough<string>(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  let buffer = '';
  let event: { id?: string; event?: string; data: string[] } = { data: [] };
  try {
    for (;;) {
      const { value, done } = await text.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line === '') {
          if (event.data.length > 0 && event.id !== undefined)
            yield { id: event.id, event: event.event ?? 'message', data: parsed(event.data.join('\n')) };
          event = { data: [] };
          continue;
        }
        const at = line.indexOf(':');
        const field = at < 0 ? line : line.slice(0, at);
        const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
        if (['', 'data', 'id', 'event', 'retry'].includes(field)) told.framed();
        if (field === 'data') event.data.push(value);
        else if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'retry' && /^\d+$/.test(value)) told.retry(Number(value));
      }
    }
  } finally {
    text.releaseLock();
    await body.cancel().catch(() => {});
  }
}

/**
 * Follows the stream at `path` (of the service in use) through drops, until it ends, the page has what it needs
 * (`onEvent` said so), the page leaves, or it proves unavailable. A first answer that is not a stream (404 for an
 * older service, 429 too_many_streams, any other refusal) is 'unavailable': the page falls back to long polls.
 */
export async function follow(path: string, options: FollowOptions): Promise<Stopped> {
  const { signal } = options;
  let last: string | undefined;
  let retryMs = 1000;
  let opened = false;
  let failures = 0;
  while (!signal.aborted) {
    const url = new URL(serviceUrl() + path);
    if (last !== undefined) url.searchParams.set('last_event_id', last);
    let answer: Response;
    try {
      const current = token();
      answer = await fetch(url, {
        headers: { accept: 'text/event-stream', ...(current ? { authorization: `Bearer ${current}` } : {}) },
        signal,
        cache: 'no-store',
      });
    } catch {
      if (signal.aborted) return 'aborted';
      // Never opened (a proxy that refuses streams, the service unreachable, which the page's reads will say): the
      // page falls back to its reads. Opened once: a drop, tried again.
      if (!opened) return 'unavailable';
      await sleep(Math.min(retryMs * 2 ** failures++, 15_000), signal);
      continue;
    }
    const streamed = answer.ok && (answer.headers.get('content-type') ?? '').startsWith('text/event-stream');
    if (!streamed) {
      const json = (answer.headers.get('content-type') ?? '').includes('json');
      const problem = json ? ((await answer.json().catch(() => undefined)) as Problem | undefined) : undefined;
      await answer.body?.cancel().catch(() => {});
      if (endedSession(problem)) return 'aborted';
      if (!opened) return 'unavailable';
      // Resuming: a service busy or down for a while (429, 5xx) is tried again; any other refusal is the page's to show.
      if (answer.status !== 429 && answer.status < 500)
        return { problem: problem ?? networkProblem(new Error(`HTTP ${answer.status}`), serviceUrl()) };
      options.onDrop?.();
      await sleep(Math.min(retryMs * 2 ** failures++, 15_000), signal);
      continue;
    }
    // Open once its first line comes (the reference server's `retry:`): from then on, what happens is in it.
    let framed = false;
    const told: Told = {
      retry: (ms) => (retryMs = ms),
      framed: () => {
        if (framed) return;
        framed = opened = true;
        failures = 0;
        options.onOpen?.();
      },
    };
    try {
      for await (const event of eventsOf(answer.body!, told)) {
        last = event.id;
        if (options.onEvent(event)) return 'ended';
      }
    } catch {
      if (signal.aborted) return 'aborted';
    }
    // An answer in another format, never a line of the stream's: no stream here.
    if (!opened) return 'unavailable';
    // The body ended without the event the page waited for (a stream that ends by itself sends it first): a drop.
    options.onDrop?.();
    await sleep(retryMs, signal);
  }
  return 'aborted';
}
