// The suite's end of a webhook (--webhook-listen host:port): an HTTP listener at an address the deployment can
// reach, recording each delivery (headers and body as sent, so the signature is checked over the exact bytes) and
// answering it as the check says (a 500 to see the retry). Port 0 takes a free port (the repository's tests).
import { createServer } from 'node:http';
import type { Exchange } from './types.ts';

export interface Delivery {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The status the suite answered. */
  answered: number;
  /** The delivery as an exchange, for failures to show (its "response" is the suite's answer). */
  exchange: Exchange;
}

export interface WebhookReceiver {
  /** The URL to set as the webhook: the listening address and a path of the run's own. */
  url: string;
  deliveries: Delivery[];
  /** Resolves with the first delivery (already received or to come) that `which` accepts, or undefined after `ms`. */
  next(which: (delivery: Delivery) => boolean, ms: number): Promise<Delivery | undefined>;
  close(): Promise<void>;
}

/**
 * `host:port` (`[::1]:port` for IPv6) split, or undefined. The host goes into the webhook's URL as well, so an
 * unspecified address (0.0.0.0, ::), which no deployment can call, is refused too.
 */
export function listenAddress(value: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[3]);
  const host = match?.[1] ?? match?.[2];
  if (!match || port > 65535 || host === '0.0.0.0' || host === '::') return undefined;
  return { host: host!, port };
}

export async function startWebhookReceiver(
  listen: string,
  path: string,
  answer: (delivery: Omit<Delivery, 'answered' | 'exchange'>) => number,
): Promise<WebhookReceiver> {
  const address = listenAddress(listen);
  if (!address)
    throw new Error(`--webhook-listen takes host:port (an address the deployment can reach); got "${listen}"`);
  const deliveries: Delivery[] = [];
  const waiting = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      const received = {
        method: req.method ?? '',
        url: `${base}${req.url ?? ''}`,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const status = answer(received);
      const exchange: Exchange = {
        check: 'webhook',
        operationId: undefined,
        request: { method: received.method, url: received.url, headers, body: received.body },
        response: { status, headers: {}, text: '', ms: 0 },
      };
      deliveries.push({ ...received, answered: status, exchange });
      res.writeHead(status).end();
      for (const wake of waiting) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const base = `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${port}`;
  return {
    url: `${base}${path}`,
    deliveries,
    next(which, ms) {
      return new Promise((resolve) => {
        const look = () => {
          const found = deliveries.find(which);
          if (!found) return false;
          clearTimeout(timer);
          waiting.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void look();
        const timer = setTimeout(() => {
          waiting.delete(wake);
          resolve(undefined);
        }, ms);
        if (!look()) waiting.add(wake);
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
