// Each user's session: a token given to the run (`token`, `token2`: issued elsewhere, say by a gateway) is sent as
// is; otherwise the user logs in on first use (POST /login, once per run). A given token the deployment refuses
// before it has accepted it once (a 401) is said in one line, with its expiry when it has passed, and every check
// that needs it afterwards fails with that line instead of with a 401 of its own.
import { answered, shown } from './answer-text.ts';
import { CheckAbort, type Http } from './http.ts';
import type { ConformanceOptions, Exchange } from './types.ts';

export type User = 'user' | 'user2';

/** How the options and the command name each user's token. */
export const tokenNames: Record<User, string> = { user: 'token (--token)', user2: 'token2 (--second-token)' };

/** When a JWT's `exp` has passed: that moment, else undefined (not a JWT, no exp, or not passed). */
export function expiredAt(token: string, now = Date.now()): string | undefined {
  try {
    const exp = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))?.exp;
    return typeof exp === 'number' && exp * 1000 <= now ? new Date(exp * 1000).toISOString() : undefined;
  } catch {
    return undefined;
  }
}

/** The line for a given token refused with `exchange`'s 401. */
export function refusedLine(user: User, token: string, exchange: Exchange): string {
  const { method, url } = exchange.request;
  const expired = expiredAt(token);
  const why = expired
    ? `it expired at ${expired} (its exp): give a new one`
    : "is it this deployment's, and still valid?";
  return `the deployment refused the ${tokenNames[user]} given to the run: ${method} ${new URL(url).pathname} answered ${answered(exchange.response!)}; ${why}`;
}

/** Sets `http.tokenOf` (and watches the answers to a given token) for the users of `options`. */
export function startSessions(
  http: Http,
  options: Pick<ConformanceOptions, 'username' | 'password' | 'username2' | 'password2' | 'token' | 'token2'>,
): void {
  const given: Record<User, string | undefined> = { user: options.token, user2: options.token2 };
  const logins = new Map<User, Promise<string>>();
  const accepted = new Set<User>();
  const refused = new Map<User, string>();
  http.onSessionAnswer = (user, exchange) => {
    const token = given[user];
    const status = exchange.response?.status;
    if (token === undefined || accepted.has(user) || status === undefined) return;
    if (status < 400) accepted.add(user);
    if (status !== 401) return;
    refused.set(user, refusedLine(user, token, exchange));
    throw new CheckAbort(refused.get(user)!, exchange);
  };
  http.tokenOf = (user, check) => {
    const token = given[user];
    if (token !== undefined)
      return refused.has(user) ? Promise.reject(new CheckAbort(refused.get(user)!)) : Promise.resolve(token);
    const [username, password] =
      user === 'user' ? [options.username, options.password] : [options.username2, options.password2];
    if (username === undefined || password === undefined)
      return Promise.reject(
        new CheckAbort(
          user === 'user'
            ? 'no credentials: a username and password, or a token (--token)'
            : 'no credentials for a second user (--second-user name:password, or --second-token)',
        ),
      );
    if (!logins.has(user)) {
      logins.set(
        user,
        (async () => {
          const reply = await http.send(check, {
            method: 'POST',
            path: '/login',
            auth: 'none',
            json: { username, password },
          });
          if (reply.status !== 200)
            throw new CheckAbort(
              `logging in as ${username}: expected 200 with an access_token, got ${answered(reply)}`,
              reply.exchange,
            );
          if (typeof reply.json?.access_token !== 'string')
            throw new CheckAbort(
              `logging in as ${username}: the 200's access_token is ${shown(reply.json?.access_token)}, expected a token`,
              reply.exchange,
            );
          return reply.json.access_token as string;
        })(),
      );
    }
    return logins.get(user)!;
  };
}
