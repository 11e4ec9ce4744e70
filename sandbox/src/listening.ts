// Listening on the host and port asked (127.0.0.1 and any free port unless told), for the mock and the proxy alike:
// the URL to give, and a close that ends every connection, an idle keep-alive or a long poll, rather than wait.
import type { Server } from 'node:http';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listening(server: Server, options: { port?: number; host?: string }): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
