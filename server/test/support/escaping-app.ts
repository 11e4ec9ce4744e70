// A process for the process-guard test: our request id, context, log and error handler around two routes whose
// failures escape Express (a rejection nobody awaits, an exception thrown from a timer), with the guard that
// jes-server installs. It prints its URL, then serves until killed.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { errorHandler } from '../../src/http/error-handler.ts';
import { withRequestContext } from '../../src/http/request-context.ts';
import { requestId } from '../../src/http/request-id.ts';
import { requestLog } from '../../src/http/request-log.ts';
import { guardProcess } from '../../src/start/process-guard.ts';

const logger = pino({ level: 'info' });
guardProcess(logger);
const app = express();
app.use(requestId, withRequestContext, requestLog(app, logger));
app.get('/rejection', () => void Promise.reject(new Error('a rejection nobody awaited')));
app.get(
  '/exception',
  () =>
    void setTimeout(() => {
      throw new Error('an exception thrown from a timer');
    }, 10),
);
app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
app.use(errorHandler);
const server = app.listen(0, () =>
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
