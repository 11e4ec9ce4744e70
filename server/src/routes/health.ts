// GET /healthz: ready when the database answers (else 503); `degraded` while its notifications are down (long
// polls and new work are then noticed by polling, up to a second late).
import { Router } from 'express';
import { ApiError } from '../core/api-error.ts';
import type { AppDeps } from './deps.ts';
import { toMillisecond } from '@jes/contract';
import { contractVersion, serverVersion } from '../core/version.ts';

export function healthRoutes({ db, config, space }: AppDeps): Router {
  return Router().get('/healthz', async function getHealth(_req, res) {
    try {
      await db.query('SELECT 1');
    } catch {
      throw new ApiError('service_unavailable', 'The database cannot be reached.', { retryAfterSeconds: 5 });
    }
    const notifications = db.notifications();
    const disk = space?.state();
    res.json({
      status: notifications === 'ok' && disk !== 'low' ? 'ok' : 'degraded',
      version: serverVersion,
      contract_version: contractVersion,
      environment: config.env,
      uptime_seconds: toMillisecond(process.uptime()),
      checks: { database: 'ok', notifications, ...(disk ? { disk } : {}) },
    });
  });
}
