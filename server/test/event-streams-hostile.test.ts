// Hostile: 2,000 event streams opened at once by one client that never reads them, then dropped without a word.
// While they are open the server still answers others (a job, a new stream); once they are dropped it frees them:
// the user's slots come back (the cap is exactly 2,000, so one more stream opens only when they are freed).
import { connect, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';
import { openStream } from './support/event-stream.ts';

const streams = 2000;
const jes = sharedServer(
  {
    JES_MAX_STREAMS_PER_USER: String(streams),
    JES_MAX_CONNECTIONS: String(streams + 100),
    JES_MAX_CONNECTIONS_PER_ADDRESS: String(streams + 100),
  },
  { users: ['alice', 'bob'] },
);

/** A stream opened on a raw socket, resolved once its answer's head and preamble have come; never read again. */
function idleStream(url: URL, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.write(`GET /events HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`),
    );
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('retry: 1000')) return;
      socket.off('data', onData);
      socket.pause();
      if (!head.startsWith('HTTP/1.1 200')) reject(new Error(head.slice(0, 200)));
      else resolve(socket);
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

it('keeps answering with 2,000 idle streams open, and frees them when their clients vanish', async () => {
  const url = new URL(jes.url);
  const sockets: Socket[] = [];
  for (let i = 0; i < streams; i += 200)
    sockets.push(...(await Promise.all(Array.from({ length: 200 }, () => idleStream(url, jes.alice.token!)))));
  expect(sockets).toHaveLength(streams);
  // At the cap: one more is refused.
  expect((await openStream(jes.url, '/events', jes.alice.token)).status).toBe(429);
  // Others are answered meanwhile, streams included (bob's), and events reach them.
  const id = await jes.bob.start(sixNodes, '?solver=exact');
  const job = await openStream(jes.url, `/job/${id}/events`, jes.bob.token);
  expect(job.status).toBe(200);
  expect((await job.rest()).at(-1)!.data.job[id].status).toBe('FINISHED');
  // Dropped without closing the streams properly: the server sees the sockets go and frees every slot.
  for (const socket of sockets) socket.destroy();
  // Every slot: once one stream opens again, as many as the cap open beside it.
  let again = await openStream(jes.url, '/events', jes.alice.token);
  for (let i = 0; again.status === 429 && i < 500; i++) {
    await new Promise((r) => setTimeout(r, 20));
    again = await openStream(jes.url, '/events', jes.alice.token);
  }
  expect(again.status).toBe(200);
  const reopened: Socket[] = [];
  for (let i = 1; i < streams; i += 200) {
    const count = Math.min(200, streams - i);
    reopened.push(...(await Promise.all(Array.from({ length: count }, () => idleStream(url, jes.alice.token!)))));
  }
  expect(reopened).toHaveLength(streams - 1);
  for (const socket of reopened) socket.destroy();
  again.close();
});
