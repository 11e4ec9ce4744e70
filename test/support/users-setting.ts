// JES_USERS as the tests write it, from a name → password record: the server's own tests (in this process or a
// child), the client's, the fuzz's and the benchmarks'.
import { createHash, scryptSync } from 'node:crypto';
import { storedHash } from '../../server/src/core/password-hash.ts';

/** JES_USERS for `users` (name → password), as an operator writes it: `alice:secret,bob:other`. */
export const usersSetting = (users: Record<string, string>): string =>
  Object.entries(users)
    .map(([name, password]) => `${name}:${password}`)
    .join(',');

/**
 * JES_USERS for `users` with each password as a stored hash of a tiny cost (N=16, r=1: a login's check in
 * microseconds, where the default's 32 MiB took 0.1–0.2 s of a core, at every server's start and every login of the
 * suite). The salt comes from the name and password, so the same users give the same setting: a restart with it keeps
 * their tokens.
 */
export const cheapUsersSetting = (users: Record<string, string>): string =>
  usersSetting(
    Object.fromEntries(
      Object.entries(users).map(([name, password]) => {
        const salt = createHash('sha256').update(`${name}:${password}`).digest().subarray(0, 16);
        const cost = { N: 16, r: 1, p: 1 };
        return [name, storedHash(cost, salt, scryptSync(password, salt, 32, cost))];
      }),
    ),
  );
