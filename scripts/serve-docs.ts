// `npm start` until the reference server exists: serves the API reference (docs/index.html) and the
// contract (openapi.yaml) over HTTP. PORT as for the server (default 3000; 0 picks a free port).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { contractPath, root } from './generated.ts';

const routes: Record<string, [file: string, type: string]> = {
  '/': [join(root, 'docs/index.html'), 'text/html; charset=utf-8'],
  '/docs': [join(root, 'docs/index.html'), 'text/html; charset=utf-8'],
  '/openapi.yaml': [contractPath, 'application/yaml; charset=utf-8'],
};

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer from 0 to 65535, got "${process.env.PORT}"`);
  process.exit(1);
}

const server = createServer(async (req, res) => {
  const route = routes[new URL(req.url ?? '/', 'http://localhost').pathname];
  if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: this is the docs server; the API server is not built yet.\n');
    return;
  }
  const body = await readFile(route[0]);
  res.writeHead(200, { 'content-type': route[1], 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : body);
});

server.listen(port, '127.0.0.1', () => {
  const { port: chosen } = server.address() as AddressInfo;
  console.log(`jes docs at http://127.0.0.1:${chosen}/ (contract at /openapi.yaml). The API server arrives with the reference server issue.`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
