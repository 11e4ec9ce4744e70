// Users and the signing key, kept in the database. JES_USERS, when set, is the whole list of users: start-up
// creates the ones it names, changes a password (or a stored hash) that differs, and disables every user it does not name (their
// rows stay: jobs and data files refer to them). Without JES_USERS the users stay as they are, and when none is
// enabled start-up creates `demo` with a random password, returned to be printed once. Disabling a user or
// changing a password bumps the user's token version, which revokes every token issued before.
import { randomBytes } from 'node:crypto';
import type { ConfiguredUser } from '../config/config.ts';
import { revocationChannel } from '../store/channels.ts';
import type { Database } from '../store/database.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';

const upsert = `INSERT INTO users (name, password_hash) VALUES ($1, $2)
  ON CONFLICT (name) DO UPDATE SET password_hash = EXCLUDED.password_hash, disabled_at = NULL, token_version = users.token_version + 1`;

export async function ensureUsers(
  db: Database,
  users: ConfiguredUser[],
): Promise<{ name: string; password: string } | undefined> {
  if (users.length === 0) {
    const [{ count } = { count: 0 }] = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM users WHERE disabled_at IS NULL',
    );
    if (count > 0) return undefined;
    const demo = { name: 'demo', password: randomBytes(12).toString('base64url') };
    await db.query(upsert, [demo.name, await hashPassword(demo.password)]);
    return demo;
  }
  for (const user of users) {
    const [row] = await db.query<{ password_hash: string; disabled: boolean }>(
      'SELECT password_hash, disabled_at IS NOT NULL AS disabled FROM users WHERE name = $1',
      [user.name],
    );
    // Unchanged users keep their tokens: every process of a deployment starts with the same list.
    const unchanged =
      row &&
      !row.disabled &&
      ('hash' in user ? row.password_hash === user.hash : await verifyPassword(user.password, row.password_hash));
    if (unchanged) continue;
    await db.query(upsert, [user.name, 'hash' in user ? user.hash : await hashPassword(user.password)]);
  }
  await db.query(
    'UPDATE users SET disabled_at = now(), token_version = token_version + 1 WHERE disabled_at IS NULL AND NOT (name = ANY($1))',
    [users.map((u) => u.name)],
  );
  await db.query('SELECT pg_notify($1, $2)', [revocationChannel, '']);
  return undefined;
}

/** The token version of an enabled user whose name and password match; as slow for unknown users as for known ones. */
export async function checkCredentials(db: Database, name: string, password: string): Promise<number | undefined> {
  const [row] = await db.query<{ password_hash: string; token_version: number }>(
    'SELECT password_hash, token_version FROM users WHERE name = $1 AND disabled_at IS NULL',
    [name],
  );
  // Every login waits for the decoy (made at the process's first): the first login of an unknown name takes no longer
  // than a known one's.
  const decoy = await decoyHash();
  const matches = await verifyPassword(password, row?.password_hash ?? decoy);
  return matches && row ? row.token_version : undefined;
}

/** The current token version of an enabled user; undefined for a user that is disabled or does not exist. */
export async function tokenVersion(db: Database, name: string): Promise<number | undefined> {
  const [row] = await db.query<{ token_version: number }>(
    'SELECT token_version FROM users WHERE name = $1 AND disabled_at IS NULL',
    [name],
  );
  return row?.token_version;
}

/** The HS256 key: JES_JWT_SECRET, or one generated once and stored, shared by every process on the database. */
export async function signingKey(db: Database, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db.query(`INSERT INTO settings (key, value) VALUES ('jwt_secret', $1) ON CONFLICT (key) DO NOTHING`, [
    randomBytes(48).toString('base64url'),
  ]);
  const [row] = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'jwt_secret'`);
  return new TextEncoder().encode(row!.value);
}
