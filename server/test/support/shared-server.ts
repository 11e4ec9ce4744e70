// One test server shared by the tests of a file or of a describe block, with alice logged in: started by the
// block's beforeAll, closed by its afterAll. A helper rather than a vitest fixture of file scope: a file fixture
// cannot be overridden inside a describe block, and the storage tests start one server per database in a
// describe.each (backends()), each with its own settings.
import { afterAll, beforeAll } from 'vitest';
import type { Running } from '../../src/start/main.ts';
import { type Backend, Client, startTestServer, users as passwords } from './server.ts';

type User = keyof typeof passwords;

export interface SharedServer {
  /** The running server: its URL, its database. */
  readonly server: Running;
  readonly url: string;
  /** alice, logged in (unless `users` leaves her out). */
  readonly alice: Client;
  /** bob, logged in when `users` names him. */
  readonly bob: Client;
  /** A client without a token. */
  readonly anonymous: Client;
}

export interface SharedServerOptions {
  /** The test users to log in before the tests run. */
  users?: User[];
  /** The database, from backends(): its settings come first, and it is dropped after the server closes. */
  backend?: Backend;
}

/**
 * Starts a test server (startTestServer: in-memory database, no rate limits) with `settings` before the tests of the
 * calling file or describe block, logs `users` in, and closes it after them.
 */
export function sharedServer(
  settings: Record<string, string> = {},
  { users = ['alice'], backend }: SharedServerOptions = {},
): SharedServer {
  let running: Running | undefined;
  let anonymous: Client | undefined;
  const clients = new Map<User, Client>();
  beforeAll(async () => {
    running = await startTestServer({ ...(await backend?.env()), ...settings });
    const url = running.url;
    anonymous = new Client(url);
    await Promise.all(users.map(async (user) => clients.set(user, await new Client(url).login(user))));
  });
  afterAll(async () => {
    await running?.close();
    await backend?.drop();
  });

  const started = () => {
    if (!running) throw new Error('the shared server is used before its beforeAll has started it');
    return running;
  };
  const client = (user: User) => {
    const found = clients.get(user);
    if (!found) throw new Error(`${user} is not logged in: sharedServer(settings, { users: [..., '${user}'] })`);
    return found;
  };
  return {
    get server() {
      return started();
    },
    get url() {
      return started().url;
    },
    get alice() {
      return client('alice');
    },
    get bob() {
      return client('bob');
    },
    get anonymous() {
      started();
      return anonymous!;
    },
  };
}
