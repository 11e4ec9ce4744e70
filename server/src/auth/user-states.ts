// Whether a token's user may still use it, asked on every authenticated request without a database read each
// time: each user's token version is remembered for `ttlMs`, and forgotten at once when any process announces
// a revocation on the user channel (the time limit covers an announcement lost to a dropped connection).
import { boundedCache } from '../core/bounded-cache.ts';
import type { Database } from '../store/database.ts';
import { revocationChannel } from '../store/channels.ts';
import { tokenVersion } from './users.ts';

export interface UserStates {
  /** The user's current token version; undefined when the user is disabled or does not exist. */
  tokenVersion(name: string): Promise<number | undefined>;
  /** The same, when it is remembered (no database read needed): a number, or null for a user that may not log in; undefined when not remembered. */
  knownVersion(name: string): number | null | undefined;
  stop(): Promise<void>;
}

export async function userStates(db: Database, ttlMs = 2000, capacity = 10_000): Promise<UserStates> {
  // Names are at most 128 characters (JES_USERS): bytes bound it as much as the count does, said here anyway.
  const known = boundedCache<string, { version: number | undefined; at: number }>({
    maxEntries: capacity,
    maxBytes: capacity * 400,
    sizeOf: (name) => 2 * name.length + 100,
  });
  // A read that raced an announcement may have seen the state before it: such a read is not remembered.
  let epoch = 0;
  const forget = () => {
    epoch++;
    known.clear();
  };
  // Announcements missed while the notifications connection was down: forget everything once it is back.
  const unlisten = await db.listen(revocationChannel, forget, forget);
  const remembered = (name: string) => {
    const hit = known.get(name);
    return hit && performance.now() - hit.at < ttlMs ? hit : undefined;
  };
  return {
    knownVersion(name) {
      const hit = remembered(name);
      return hit ? (hit.version ?? null) : undefined;
    },
    async tokenVersion(name) {
      const hit = remembered(name);
      if (hit) return hit.version;
      const before = epoch;
      const version = await tokenVersion(db, name);
      if (before !== epoch) return version;
      known.set(name, { version, at: performance.now() });
      return version;
    },
    stop: unlisten,
  };
}
