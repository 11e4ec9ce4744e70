// The wire format of the event streams (GET /job/{job_id}/events, GET /events), written once for the server and
// the sandbox: Server-Sent Events whose `data` is one line of JSON (JSON.stringify escapes every CR and LF, the
// only line breaks of the format), numbered by `id` so a client resumes with Last-Event-ID.

/** What a browser's EventSource waits before it reconnects, sent first on every stream. */
export const streamRetryMs = 1000;
/** How often a quiet stream sends a comment, so proxies and clients know it is alive. */
export const keepAliveMs = 15_000;
/** At most one progress event per execution this often. */
export const progressEveryMs = 500;

export const streamPreamble = `retry: ${streamRetryMs}\n\n`;
export const keepAliveFrame = ': keep-alive\n\n';

/** One event as the stream sends it. */
export function eventFrame(id: number | string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The event a stream resumes after: the Last-Event-ID header, else the `last_event_id` query parameter (the
 * contract's pattern, 1 to 15 digits, is checked before); 0, the start, when neither is sent.
 */
export function resumeAfter(header: string | undefined, query: string | undefined): number {
  const value = header ?? query;
  return value === undefined ? 0 : Number(value);
}
