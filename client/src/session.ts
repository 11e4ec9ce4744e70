// The bearer token of one client: logged in lazily on the first call that needs it, attached to every
// request but login and health, renewed before a call once its own expiry has passed, and renewed once when the API
// answers 401 `invalid_token`.
import type { Client, Middleware } from 'openapi-fetch';
import type { paths } from '@jes/contract';
import { settle } from './result.ts';
import type { LoginResponse, Result } from './types.ts';

export interface Credentials {
  username: string;
  password: string;
}

const unauthenticated = new Set(['/login', '/healthz']);

/**
 * True when the token is a JWT whose `exp` has passed by this clock. A service may accept it a little longer (clock
 * skew) but ends a stream at its expiry: the stream is reopened with a new token rather than the spent one.
 */
function expired(token: string): boolean {
  const payload = token.split('.')[1];
  if (payload === undefined) return false;
  try {
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof exp === 'number' && exp * 1000 <= Date.now();
  } catch {
    return false;
  }
}

export class Session {
  #token: string | undefined;
  #credentials: Credentials | undefined;
  #loggingIn: Promise<Result<LoginResponse>> | undefined;
  readonly #api: Client<paths>;

  constructor(api: Client<paths>, credentials: Credentials | undefined, token: string | undefined) {
    this.#api = api;
    this.#credentials = credentials;
    this.#token = token;
    api.use(this.#attach);
  }

  /** The token in use, if any. */
  get token(): string | undefined {
    return this.#token;
  }

  readonly #attach: Middleware = {
    onRequest: ({ request, schemaPath }) => {
      if (this.#token !== undefined && !unauthenticated.has(schemaPath))
        request.headers.set('Authorization', `Bearer ${this.#token}`);
      return undefined;
    },
  };

  /** Logs in with the given credentials (remembered for later renewals) or the client's own. */
  login(credentials: Credentials | undefined = this.#credentials): Promise<Result<LoginResponse>> {
    if (!credentials)
      return Promise.reject(new TypeError('login needs a username and password (none were given to createJesClient)'));
    this.#credentials = credentials;
    this.#loggingIn ??= this.#api.POST('/login', { body: credentials }).then(
      (answer) => {
        this.#loggingIn = undefined;
        const result = settle(answer, (data) => data);
        if (result.data) this.#token = result.data.access_token;
        return result;
      },
      (error: unknown) => {
        this.#loggingIn = undefined;
        throw error;
      },
    );
    return this.#loggingIn;
  }

  /**
   * Runs `call` with a token: logs in first when there is none (or it has expired) but there are credentials, and
   * after a 401 `invalid_token` logs in again and retries once (a second refusal is returned, never looped on).
   * A call whose body cannot be sent twice (`replayable: false`) is not retried.
   */
  async authed<T>(call: () => Promise<Result<T>>, { replayable = true } = {}): Promise<Result<T>> {
    // A token past its own expiry is spent: with credentials, log in again before the call, not after its refusal.
    const spent = this.#token !== undefined && expired(this.#token);
    if ((this.#token === undefined || spent) && this.#credentials) {
      const login = await this.login();
      if (login.error) return login;
    }
    const sent = this.#token;
    const first = await call();
    if (first.error?.code !== 'invalid_token' || !this.#credentials || !replayable) return first;
    if (this.#token === sent) {
      this.#token = undefined;
      const login = await this.login();
      if (login.error) return login;
    }
    return call();
  }
}
