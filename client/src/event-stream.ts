// Reading a Server-Sent Events stream with fetch (browsers cannot send Authorization with EventSource): each event as
// it comes, and after a dropped connection the stream opened again from the last event's id (Last-Event-ID), after
// a pause that starts at the server's `retry:` and doubles up to a cap. An event whose id was seen already is not
// yielded again, whatever the server resends. Browser-safe: fetch, TextDecoder and eventsource-parser only.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { keepAliveMs, streamRetryMs } from '@jes/contract';
import type { Problem, Result } from './types.ts';
import { retryAfterMs, sleep } from './wait.ts';

export interface ReconnectOptions {
  /**
   * Drops in a row (a connection lost, refused or closed, without a new event between them) before giving up: the
   * last network error is then thrown, or the last HTTP problem yielded (default: no end; the `signal` stops it).
   */
  tries?: number;
  /** The longest pause before a reconnection, in milliseconds (default 30 000); the first is the server's `retry:`. */
  maxDelayMs?: number;
  /** A stream silent this long (no event, no keep-alive) is taken as dropped (default 45 000, three keep-alives). */
  idleMs?: number;
  /** Told of each reconnection before its pause: the how-many-th in a row, the pause, and why. */
  onReconnect?: (attempt: number, delayMs: number, reason: string) => void;
}

export interface StreamOptions {
  /** Start after this event (an `id` seen before): the events after it follow, none twice. */
  lastEventId?: string;
  /** Stops the stream: the iterator rejects with the signal's reason. Leaving the `for await` loop closes it too. */
  signal?: AbortSignal;
  reconnect?: ReconnectOptions;
}

/** Opens the stream, sending `lastEventId` as Last-Event-ID when there is one. */
export type OpenStream = (
  lastEventId: string | undefined,
  signal: AbortSignal,
) => Promise<Result<ReadableStream<Uint8Array> | null | undefined>>;

/** Answers a reconnection may cure: too many streams for a moment, a gateway or the service briefly unavailable. */
const passing = new Set([429, 502, 503, 504]);

/** Parsers buffer at most this much of one event: an `end` event carries the job with its answers. */
const maxEventChars = 64 * 1024 * 1024;

/** True when `id` comes after `last`: both decimal numbers, as the contract's ids are (else taken as new). */
function isAfter(id: string, last: string | undefined): boolean {
  if (last === undefined || !/^\d{1,15}$/.test(id) || !/^\d{1,15}$/.test(last)) return true;
  return Number(id) > Number(last);
}

function notAStream(response: Response, what?: string): Problem {
  const type = response.headers.get('content-type') ?? 'no content type';
  return {
    type: 'about:blank',
    title: 'Not an event stream',
    status: response.status,
    detail: `The service answered ${response.status} with ${what ?? `${type}, not text/event-stream`}.`,
    code: 'not_an_event_stream',
  };
}

/** Why a connection ended without its stream's end: a failure to resume from, or a problem to stop at. */
type Drop = { reason: string; error?: unknown; problem?: Result<never>; retryAfter?: number };

/**
 * Yields each event of the stream `open` opens, as `typed` makes it (`undefined` skips an event this client does not
 * know), until one that `ends` (yielded, then the stream closes). HTTP problems are yielded, after which it stops.
 * The first connection's network failure rejects as fetch does; once a stream has been open, drops are resumed.
 */
export async function* readStream<E>(
  open: OpenStream,
  typed: (message: EventSourceMessage) => E | undefined,
  ends: (event: E) => boolean,
  options: StreamOptions = {},
): AsyncGenerator<Result<E>, void, undefined> {
  const { signal, reconnect = {} } = options;
  const { tries = Infinity, maxDelayMs = 30_000, idleMs = 3 * keepAliveMs, onReconnect } = reconnect;
  let lastEventId = options.lastEventId;
  let retryMs = streamRetryMs;
  let opened = false;
  let failures = 0;
  // Closes the connection in use when the caller leaves the loop or aborts.
  const closing = new AbortController();
  const close = () => closing.abort(signal?.reason);
  signal?.addEventListener('abort', close, { once: true });
  try {
    for (;;) {
      signal?.throwIfAborted();
      const connection = new AbortController();
      const both = AbortSignal.any([closing.signal, connection.signal]);
      let drop: Drop;
      try {
        const answer = await open(lastEventId, both);
        const { response } = answer;
        if (answer.error) {
          if (!opened || !passing.has(response.status)) return void (yield answer);
          drop = { reason: `${answer.error.code}: ${answer.error.detail}`, problem: answer };
          const asked = retryAfterMs(response);
          if (asked !== undefined) drop.retryAfter = asked;
        } else if (!answer.data || !/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) {
          await answer.data?.cancel().catch(() => {});
          return void (yield { error: notAStream(response), response });
        } else {
          const first = !opened;
          opened = true;
          // Events are gathered by the parser's callbacks, then yielded between two reads.
          const queue: E[] = [];
          let ended = false;
          // Fields of the format read, and characters received: a mock that answers the contract's example (a JSON
          // array) as text/event-stream sends characters and no field.
          let fields = 0;
          let received = 0;
          // The last id yielded (or skipped as unknown): what a resend must come after.
          let seen = lastEventId;
          const parser = createParser({
            maxBufferSize: maxEventChars,
            onId: (id) => {
              fields += 1;
              if (isAfter(id, lastEventId)) lastEventId = id;
            },
            onRetry: (ms) => {
              fields += 1;
              // Never below 10 ms: doubling 0 stays 0, and `retry: 0` would reconnect in a busy loop.
              retryMs = Math.max(10, ms);
            },
            onComment: () => (fields += 1),
            onEvent: (message) => {
              fields += 1;
              if (ended || (message.id !== undefined && !isAfter(message.id, seen))) return;
              if (message.id !== undefined) seen = message.id;
              const event = typed(message);
              if (event === undefined) return;
              queue.push(event);
              if (ends(event)) ended = true;
            },
            // Garbage lines (unknown fields, a bad retry) are ignored; an endless line ends the connection.
            onError: (error) => error.type === 'max-buffer-size-exceeded' && connection.abort(),
          });
          const reader = answer.data.getReader();
          const decoder = new TextDecoder();
          let timer: ReturnType<typeof setTimeout> | undefined;
          const watch = () => {
            clearTimeout(timer);
            timer = setTimeout(() => connection.abort(), idleMs);
          };
          try {
            for (;;) {
              watch();
              const chunk = await reader.read();
              clearTimeout(timer);
              if (chunk.done) {
                // A first connection that sent something, but no field of the format: not a stream to resume.
                if (first && fields === 0 && received > 0)
                  return void (yield {
                    error: notAStream(response, 'text/event-stream, but no Server-Sent Events'),
                    response,
                  });
                break;
              }
              const text = decoder.decode(chunk.value, { stream: true });
              received += text.length;
              parser.feed(text);
              while (queue.length > 0) {
                failures = 0;
                yield { data: queue.shift()!, response };
              }
              if (ended) return;
            }
            drop = { reason: 'the stream closed before its end' };
          } catch (error) {
            if (signal?.aborted || closing.signal.aborted) throw error;
            drop = connection.signal.aborted
              ? { reason: `no event or keep-alive for ${idleMs / 1000} s, or a line too long` }
              : { reason: error instanceof Error ? error.message : String(error), error };
          } finally {
            clearTimeout(timer);
            void reader.cancel().catch(() => {});
          }
        }
      } catch (error) {
        if (signal?.aborted || closing.signal.aborted || !opened) throw error;
        drop = { reason: error instanceof Error ? error.message : String(error), error };
      }
      failures += 1;
      if (failures >= tries) {
        if (drop.problem) return void (yield drop.problem);
        throw drop.error ?? new TypeError(`event stream lost: ${drop.reason}`);
      }
      const backoff = Math.min(maxDelayMs, retryMs * 2 ** (failures - 1));
      const delay = drop.retryAfter ?? backoff / 2 + Math.random() * (backoff / 2);
      onReconnect?.(failures, delay, drop.reason);
      await sleep(delay, signal);
    }
  } finally {
    signal?.removeEventListener('abort', close);
    closing.abort();
  }
}
