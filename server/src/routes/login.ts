// POST /login: credentials for a bearer token. Password checks pass through the hashing gate: a flood of
// logins waits its turn, and past the queue is answered 429 at once.
import { availableParallelism } from 'node:os';
import { type Request, type Response, Router } from 'express';
import { challenge } from '../auth/authenticate.ts';
import { hashingGate, HashingBusyError } from '../auth/hashing-gate.ts';
import { tokenLifetimeSeconds } from '../auth/tokens.ts';
import { checkCredentials } from '../auth/users.ts';
import { address } from '../http/rate-limits.ts';
import { ApiError } from '../core/api-error.ts';
import type { AppDeps } from './deps.ts';

export function loginRoutes(
  { db, tokens, limiters }: AppDeps,
  gate = hashingGate(Math.max(1, Math.floor(availableParallelism() / 2)), 16),
): Router {
  return Router().post('/login', async function login(req: Request, res: Response) {
    const { username, password } = req.body as { username: string; password: string };
    let version: number | undefined;
    try {
      version = await gate(() => checkCredentials(db, username, password));
    } catch (error) {
      if (error instanceof HashingBusyError)
        throw new ApiError('rate_limited', error.message, { retryAfterSeconds: 1 });
      throw error;
    }
    if (version === undefined) {
      throw new ApiError('invalid_credentials', 'The username or password is wrong.', {
        headers: { 'WWW-Authenticate': challenge },
      });
    }
    limiters.known.remember(username, address(req));
    res.set('Cache-Control', 'no-store').json({
      access_token: await tokens.issue(username, version),
      token_type: 'Bearer',
      expires_in: tokenLifetimeSeconds,
    });
  });
}
