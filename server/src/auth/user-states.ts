// Whether a token's user may still use it, asked on every authenticated request without a database read each
// time: each user's token version is remembered for `ttlMs`, and forgotten at once when any process announces
// a revocation on the user channel (the time limit covers an announcement lost to a dropped connection).
import type { Database } from '../store/database.ts';
import { tokenVersion, userChannel } from './users.ts';

export interface UserStates {
  /** The user's current token version; undefined when the user is disabled or does not exist. */
  tokenVersion(name: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

export async function userStates(db: Database, ttlMs = 2000, capacity = 10_000): Promise<UserStates> {
  const known = new Map<string, { version: number | undefined; at: number }>();
  // A read that raced an announcement may have seen the state before it: such a read is not remembered.
  let epoch = 0;
  const unlisten = await db.listen(userChannel, () => {
    epoch++;
    known.clear();
  });
  return {
    async tokenVersion(name) {
      const hit = known.get(name);
      if (hit && performance.now() - hit.at < ttlMs) return hit.version;
      const before = epoch;
      const version = await tokenVersion(db, name);
      if (before !== epoch) return version;
      if (known.size >= capacity) known.delete(known.keys().next().value!);
      known.set(name, { version, at: performance.now() });
      return version;
    },
    stop: unlisten,
  };
}
