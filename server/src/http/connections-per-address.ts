// Connections per client address: one address holds at most `perAddress` of the process's sockets, so a client
// without a token cannot take every slot (1,020 idle sockets, reopened as the header timeout closed them, held all
// 1,000, and no health probe got through in 60 s: issue 27). A peer that is a trusted proxy (JES_TRUST_PROXY)
// speaks for many clients and is not counted; the proxy limits its own clients (docs/security.md).
import type { Server } from 'node:http';

export function capConnectionsPerAddress(
  server: Server,
  perAddress: number,
  trusted: (address: string) => boolean,
): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || trusted(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) return void socket.destroy();
    open.set(address, count);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
