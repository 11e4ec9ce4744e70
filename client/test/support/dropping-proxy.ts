// A TCP proxy in front of the real server that loses answers the way a crash or a network reset does: for
// the first `drops` requests whose request line matches, the server's answer is not passed on and the
// client's connection is cut once the server has answered (so the server did act). Everything else passes.
import { connect, createServer, type Socket } from 'node:net';

export interface DroppingProxy {
  url: string;
  /** Request lines whose answers were dropped. */
  dropped: string[];
  close(): Promise<void>;
}

export async function droppingProxy(target: string, matches: RegExp, drops = 1): Promise<DroppingProxy> {
  const { hostname, port } = new URL(target);
  const dropped: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let dropNext: string | undefined;
    client.on('data', (chunk: Buffer) => {
      const line = chunk.toString('latin1').split('\r\n', 1)[0]!;
      if (
        dropNext === undefined &&
        /^[A-Z]+ \S+ HTTP\/1\.1$/.test(line) &&
        matches.test(line) &&
        dropped.length < drops
      )
        dropNext = line;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (dropNext === undefined) return void client.write(chunk);
      dropped.push(dropNext);
      dropNext = undefined;
      client.destroy();
      upstream.destroy();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    dropped,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
