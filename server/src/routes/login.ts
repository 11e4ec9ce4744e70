// POST /login: credentials for a bearer token.
import { Router } from 'express';
import { challenge } from '../auth/authenticate.ts';
import { tokenLifetimeSeconds } from '../auth/tokens.ts';
import { checkCredentials } from '../auth/users.ts';
import { HttpProblem } from '../http/problems.ts';
import type { AppDeps } from '../app.ts';

export function loginRoutes({ db, tokens }: AppDeps): Router {
  return Router().post('/login', async (req, res) => {
    const { username, password } = req.body as { username: string; password: string };
    if (!(await checkCredentials(db, username, password))) {
      throw new HttpProblem('invalid_credentials', 'The username or password is wrong.', { headers: { 'WWW-Authenticate': challenge } });
    }
    res.set('Cache-Control', 'no-store').json({ access_token: await tokens.issue(username), token_type: 'Bearer', expires_in: tokenLifetimeSeconds });
  });
}
