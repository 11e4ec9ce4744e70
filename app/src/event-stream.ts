// Following one of the service's event streams (GET /job/{job_id}/events, GET /events) with @jes/client's iterators
// (fetch, since a browser's EventSource cannot send Authorization; resumed after a drop from the last event's id).
// What a page needs besides the events: to know when the stream is open (the jobs list reads its page then, so that
// no change between its first read and the opening is missed), that it dropped, and whether the service has streams
// at all. One without (older than contract 1.7, or a stand-in answering text/event-stream with a JSON body, as the
// stateless sandbox's canned example is) is followed by long polls instead.
import type { JesClient, Problem, Result } from '@jes/client';
import { clientThrough, endedSession } from './session.ts';

/** How a stream stopped being followed: it ended (its job did, or the page had what it needed), the service has
 * none, the page left (or the session ended), or a refusal once it was open (the job deleted, say). */
export type Stopped = 'ended' | 'unavailable' | 'aborted' | { problem: Problem };

export interface FollowOptions<E> {
  /** Each event, in order; returns true when it is the last the page needs (the stream is then closed). */
  onEvent(event: E): boolean | void;
  /** Each time the stream is open (again): what happens from then on is in it. */
  onOpen?(): void;
  /** A drop: no news until it is resumed. */
  onDrop?(): void;
  signal: AbortSignal;
}

const isEventStream = (response: Response) =>
  response.ok && /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');

/**
 * Follows the stream `open` opens (`client.jobEvents(id, options)`, `client.events(options)`) until it ends, the page
 * has what it needs, the page leaves, or it proves to be no stream: a refusal of the first request (404 for an older
 * service, 429 too_many_streams), a network failure of it, or a first answer that drops before any event.
 */
export async function follow<E>(
  open: (
    client: JesClient,
    options: { signal: AbortSignal; reconnect: { onReconnect(): void } },
  ) => AsyncGenerator<Result<E>, void, undefined>,
  { onEvent, onOpen, onDrop, signal }: FollowOptions<E>,
): Promise<Stopped> {
  // Stops the iterator when the page leaves, or when its first answer proves to be no stream.
  const stop = new AbortController();
  const leave = () => stop.abort();
  signal.addEventListener('abort', leave, { once: true });
  let heard = false;
  const watching = async (request: Request) => {
    const response = await fetch(request);
    if (isEventStream(response)) onOpen?.();
    return response;
  };
  const onReconnect = () => {
    if (heard) return onDrop?.();
    stop.abort();
  };
  try {
    for await (const result of open(clientThrough(watching), { signal: stop.signal, reconnect: { onReconnect } })) {
      if (result.error) {
        if (endedSession(result.error)) return 'aborted';
        return heard ? { problem: result.error } : 'unavailable';
      }
      heard = true;
      if (onEvent(result.data)) return 'ended';
    }
    return 'ended';
  } catch {
    // The page left, or the first request failed (a proxy that refuses streams; the service unreachable, which the
    // page's reads will say), or the first answer was no stream.
    return signal.aborted ? 'aborted' : 'unavailable';
  } finally {
    signal.removeEventListener('abort', leave);
    stop.abort();
  }
}
