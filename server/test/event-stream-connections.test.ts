// A stream outlives the server's request timeouts (they bound receiving a request, not answering one: a stream is
// an answer that lasts), and a server that shuts down ends its streams rather than waiting on them.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { Client, sixNodes, startTestServer } from './support/server.ts';
import { openStream } from './support/event-stream.ts';

it('keeps a stream open past the headers, request and keep-alive timeouts, and ends it at shutdown', async () => {
  const server = await startTestServer({
    JES_HEADERS_TIMEOUT_SECONDS: '1',
    JES_REQUEST_TIMEOUT_SECONDS: '1',
    JES_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
  });
  let closed = false;
  try {
    const alice = await new Client(server.url).login('alice');
    const stream = await openStream(server.url, '/events', alice.token);
    expect(stream.status).toBe(200);
    // Three times every timeout (checked every second by the server): the stream is still there, and live.
    await sleep(3500);
    const id = await alice.start(sixNodes, '?solver=exact');
    expect(await stream.next()).toMatchObject({ event: 'status', data: { job_id: id, status: 'PENDING' } });
    expect((await stream.next())!.data.status).toBe('RUNNING');
    expect((await stream.next())!.data.status).toBe('FINISHED');
    // Shutting down: the stream ends, and close() does not wait on it.
    await server.close();
    closed = true;
    expect(await stream.rest()).toEqual([]);
  } finally {
    if (!closed) await server.close();
  }
});
