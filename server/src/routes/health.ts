// GET /healthz: ready when the database answers.
import { Router } from 'express';
import { HttpProblem } from '../http/problems.ts';
import type { AppDeps } from '../app.ts';

const version = '1.0.0';

export function healthRoutes({ db, config }: AppDeps): Router {
  return Router().get('/healthz', async (_req, res) => {
    try {
      await db.query('SELECT 1');
    } catch {
      throw new HttpProblem('service_unavailable', 'The database cannot be reached.', { headers: { 'Retry-After': '5' } });
    }
    res.json({ status: 'ok', version, environment: config.env, uptime_seconds: Math.round(process.uptime() * 10) / 10 });
  });
}
