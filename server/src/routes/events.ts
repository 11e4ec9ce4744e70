// Following jobs live (streamJobEvents, streamEvents): Server-Sent Events from the job event log, resumed after
// Last-Event-ID (or last_event_id). The streams themselves live in jobs/streams.ts; here, the checks before one
// opens: the job is the caller's (404), the caller holds fewer than JES_MAX_STREAMS_PER_USER (429), and when the
// caller's token expires (the stream ends then).
import { Router, type Request } from 'express';
import { decodeJwt } from 'jose';
import { resumeAfter, terminalJob } from '@jes/contract';
import { refused } from '../auth/authenticate.ts';
import { ApiError } from '../core/api-error.ts';
import { waitSlots } from '../http/wait-slots.ts';
import { latestUserSeq } from '../store/job-events.ts';
import { readJob } from '../store/jobs.ts';
import type { AppDeps } from './deps.ts';

/**
 * When the request's bearer token expires (it passed authentication, so it is ours and has an `exp`). A token past
 * its `exp` but within the minute of clock skew authentication forgives opens no stream: the stream would end at
 * once, and a client holding only that token would reconnect in a loop for that minute; a 401 tells it to log in.
 */
function tokenExpiry(req: Request): number {
  const token = /^Bearer +([^\s]+)/i.exec(req.get('authorization') ?? '')?.[1];
  const exp = token ? decodeJwt(token).exp : undefined;
  const expires = exp === undefined ? Date.now() : exp * 1000;
  if (expires <= Date.now()) throw refused('The token has expired; log in again for a new one.');
  return expires;
}

export function eventRoutes({ db, config, streams }: AppDeps): Router {
  const slots = waitSlots(config.http.maxStreamsPerUser, Infinity);
  const router = Router();

  /** A stream slot for the caller, released when the stream closes; 429 too_many_streams when none is left. */
  const slot = (req: Request) => {
    const release = slots.take(req.user);
    if (!release)
      throw new ApiError(
        'too_many_streams',
        `You hold ${config.http.maxStreamsPerUser} event streams, the most one user may; close one first.`,
        { retryAfterSeconds: 5 },
      );
    req.res!.once('close', release);
  };
  const after = (req: Request) => resumeAfter(req.get('last-event-id'), req.query.last_event_id as string | undefined);

  router.get('/job/:job_id/events', async function streamJobEvents(req, res) {
    const id = req.params.job_id!;
    const from = after(req);
    const view = await readJob(db, req.user, id);
    if (!view) throw new ApiError('job_not_found', `No job ${id} exists for this user.`);
    const expires = tokenExpiry(req);
    slot(req);
    const ended = terminalJob.has(view.job.status);
    streams.openJob(id, { res, owner: req.user, after: from, expires, ended });
  });

  router.get('/events', async function streamEvents(req, res) {
    const header = req.get('last-event-id');
    const query = req.query.last_event_id as string | undefined;
    // Without Last-Event-ID, from the moment the stream opens: after the user's latest event.
    const from = header === undefined && query === undefined ? await latestUserSeq(db, req.user) : after(req);
    const expires = tokenExpiry(req);
    slot(req);
    streams.openUser({ res, owner: req.user, after: from, expires });
  });

  return router;
}
