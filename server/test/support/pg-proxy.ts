// TCP proxies in front of PostgreSQL, for outages a test can switch on and off. pgProxy can end every new connection
// the way an administrator's pg_terminate_backend does when it strikes a backend as it finishes starting: the
// server's ReadyForQuery and its FATAL 57P01 arrive in one chunk, so pg parses both in one go, with no pause between
// them for the application to attach an error listener to the client it has just been handed. stallingProxy can hold
// every byte, as a partition or a hung host would.
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Listens for `server` on the loopback: the database URL `target` through it, and its close (every socket cut). */
async function listenFor(
  server: Server,
  target: string,
  sockets: Set<Socket>,
): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const via = new URL(target);
  via.hostname = '127.0.0.1';
  via.port = String((server.address() as AddressInfo).port);
  return {
    url: via.toString(),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A FATAL ErrorResponse ('E'), SQLSTATE 57P01 (admin_shutdown). */
function adminShutdown(): Buffer {
  const fields = Buffer.from(
    'SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0',
    'latin1',
  );
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

export interface PgProxy {
  /** The database URL through the proxy. */
  url: string;
  /** While true, each new connection is ended as it becomes ready (existing ones are left alone). */
  killNew: boolean;
  /** Connections ended so far. */
  readonly killed: number;
  close(): Promise<void>;
}

export async function pgProxy(target: string): Promise<PgProxy> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  let killed = 0;
  const state = { killNew: false };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(to.port || 5432), to.hostname);
    sockets.add(client).add(upstream);
    const kill = state.killNew;
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    if (!kill) return void upstream.pipe(client);
    // Until the first ReadyForQuery ('Z'): the server's messages are cut at their boundaries to find it.
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let at = 0; at + 5 <= pending.length;) {
        const end = at + 1 + pending.readInt32BE(at + 1);
        if (end > pending.length) break;
        if (pending[at] === 'Z'.charCodeAt(0)) {
          killed++;
          client.end(Buffer.concat([pending.subarray(0, end), adminShutdown()]));
          upstream.destroy();
          return;
        }
        at = end;
      }
    });
  });
  const { url, close } = await listenFor(server, target, sockets);
  return {
    url,
    get killNew() {
      return state.killNew;
    },
    set killNew(value: boolean) {
      state.killNew = value;
    },
    get killed() {
      return killed;
    },
    close,
  };
}

/**
 * A TCP proxy to PostgreSQL whose network can stall: while `stalled`, bytes in both directions (and new connections'
 * handshakes) are held, as a partition or a hung host would; released in order once it is not.
 */
export async function stallingProxy(
  target: string,
): Promise<{ url: string; stalled: boolean; attempts(text: string): number; close(): Promise<void> }> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  const held: [Socket, Buffer][] = [];
  const state = { stalled: false, opened: 0 };
  const forward = (from: Socket, into: Socket) =>
    from.on('data', (chunk: Buffer) => (state.stalled ? held.push([into, chunk]) : into.write(chunk)));
  const clients = new Set<Socket>();
  const server = createServer((client) => {
    clients.add(client);
    if (state.stalled) state.opened++;
    const upstream = connect(Number(to.port || 5432), to.hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a);
      forward(a, b);
      a.on('error', () => b.destroy()).on('close', () => b.destroy());
    }
  });
  const { url, close } = await listenFor(server, target, sockets);
  return {
    url,
    get stalled() {
      return state.stalled;
    },
    /**
     * What the stall holds back: connections opened since it began, and statements `text` sent on those already open.
     * (A statement for a new connection waits for its handshake, which the stall holds.)
     */
    attempts: (text: string) =>
      state.opened +
      held
        .filter(([into]) => !clients.has(into))
        .map(([, chunk]) => chunk.toString('latin1'))
        .join('')
        .split(text).length -
      1,
    set stalled(value: boolean) {
      state.stalled = value;
      state.opened = 0;
      if (!value) for (const [into, chunk] of held.splice(0)) if (!into.destroyed) into.write(chunk);
    },
    close,
  };
}
