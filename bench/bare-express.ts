// The comparison app of the API benchmark: a bare Express 5 app (no middleware at all) answering one GET
// route with a JSON body held in memory. Started by bench/api.ts as a child process:
//   BARE_ROUTE=/job/:job_id BARE_BODY='{"job":{...}}' node bench/bare-express.ts
// It listens on a free port of 127.0.0.1 and prints "bare express listening on http://127.0.0.1:PORT".
// The body is parsed once and sent with res.json, as an Express app serving an object from memory would;
// the bytes on the wire are the same as BARE_BODY (which is the jes server's own answer, compact JSON).
import type { AddressInfo } from 'node:net';
import express from 'express';

const route = process.env.BARE_ROUTE ?? '/job/:job_id';
const body: unknown = JSON.parse(process.env.BARE_BODY ?? '{}');

const app = express();
app.get(route, (_req, res) => {
  res.json(body);
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(`bare express listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
