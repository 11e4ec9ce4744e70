// Listening on HOST:PORT, before the database opens: a port in use is said in one line within a second (it
// came as a raw EADDRINUSE stack after a 7 s database start). And the URL to print: the address really
// listened on; for 0.0.0.0 or ::, which no browser can open, this machine's loopback.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../config/config.ts';

export interface Listening {
  /** A URL that reaches the server from this machine, such as http://127.0.0.1:3000. */
  url: string;
  /** The address and port listened on, as the system reports them: 0.0.0.0 or :: for every interface. */
  address: string;
  port: number;
  allInterfaces: boolean;
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ConfigError(`port ${port} on ${host} is in use (by another jes server?); stop it or set PORT`);
    case 'EACCES':
      return new ConfigError(`port ${port} on ${host} needs privileges this process lacks; set PORT to 1024 or above`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `HOST ${host} is no address of this machine; set HOST to one of its addresses, or 0.0.0.0 for every interface`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConfigError(`HOST ${host} names no address (${error.code}); set HOST to an address such as 127.0.0.1`);
    default:
      return error;
  }
}

export function listen(server: Server, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      const { address, family, port: bound } = server.address() as AddressInfo;
      const allInterfaces = address === '0.0.0.0' || address === '::';
      // :: takes IPv4 too (unless the system says otherwise), and `localhost` tries both families.
      const shown =
        address === '0.0.0.0'
          ? '127.0.0.1'
          : address === '::'
            ? 'localhost'
            : family === 'IPv6'
              ? `[${address}]`
              : address;
      resolve({ url: `http://${shown}:${bound}`, address, port: bound, allInterfaces });
    });
  });
}
