// GET /readyz, outside the contract: whether a load balancer should send this process requests now. 200
// {"status":"ready"}, or a 503 service_unavailable problem saying why: the database does not answer, or the process
// is draining (SIGTERM with JES_DRAIN_SECONDS). It needs only the database and the draining flag, so any listener can
// mount it (the API's, an ops listener's). /healthz (liveness) stays as it is.
import { Router } from 'express';
import { ApiError } from '../core/api-error.ts';
import { errorHandler } from '../http/error-handler.ts';
import type { Queryable } from '../store/database.ts';

export interface ReadinessDeps {
  db: Queryable;
  /** Whether the process is draining: it still serves, but should be sent nothing new. */
  draining: () => boolean;
  /** How long the database has to answer `SELECT 1` before the process is not ready. */
  timeoutMs?: number;
}

/** Seconds a prober is asked to wait (a balancer probes on its own schedule; a person's script reads it). */
const retryAfterSeconds = 5;

/** A check unanswered after this long is given up for a new one (a connection lost without a word may never answer). */
const abandonAfterMs = 15_000;

const drainingDetail = 'This process is draining before it stops: it finishes what it was sent; send it nothing new.';

/**
 * The database's answer to `SELECT 1` within `timeoutMs`: undefined when it answered, else why not. One statement at
 * a time: probes that come while one is out wait for it (each at most `timeoutMs`), so a hung database holds one
 * statement of this process, not one per probe (a new one at most every 15 s).
 */
function databaseCheck(db: Queryable, timeoutMs: number): () => Promise<string | undefined> {
  let pending: { answer: Promise<string | undefined>; sentAt: number } | undefined;
  return async () => {
    if (!pending || performance.now() - pending.sentAt > abandonAfterMs) {
      const sent = {
        sentAt: performance.now(),
        answer: db.query('SELECT 1').then(
          () => undefined,
          () => 'The database cannot be reached.',
        ),
      };
      pending = sent;
      void sent.answer.then(() => {
        if (pending === sent) pending = undefined;
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`The database did not answer within ${timeoutMs / 1000} s.`), timeoutMs);
    });
    try {
      return await Promise.race([pending.answer, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

export function readinessRoutes({ db, draining, timeoutMs = 2000 }: ReadinessDeps): Router {
  const check = databaseCheck(db, timeoutMs);
  const notReady = (detail: string) =>
    new ApiError('service_unavailable', detail, { retryAfterSeconds, headers: { 'Cache-Control': 'no-store' } });
  return (
    Router()
      .get('/readyz', async function getReadiness(_req, res) {
        if (draining()) throw notReady(drainingDetail);
        const failure = await check();
        // Draining may have begun while the database was asked.
        if (draining()) throw notReady(drainingDetail);
        if (failure) throw notReady(failure);
        res.set('Cache-Control', 'no-store').json({ status: 'ready' });
      })
      // The one error handler, here too: a listener that mounts only this router answers the same problem.
      .use(errorHandler)
  );
}

/**
 * GET /healthz where the contract's is not served (the ops listener, JES_METRICS_PORT; a worker process's only
 * HTTP): the process is alive and its event loop turns. Readiness, not this, asks the database.
 */
export function livenessRoutes(): Router {
  return Router().get('/healthz', function getLiveness(_req, res) {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
}
