// Users and the signing key, kept in the database. Start-up creates or updates the users of JES_USERS; with
// no users at all it creates `demo` with a random password, which it returns to be printed once.
import { randomBytes } from 'node:crypto';
import type { Database } from '../store/database.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';

export async function ensureUsers(db: Database, users: { name: string; password: string }[]): Promise<{ name: string; password: string } | undefined> {
  for (const user of users) {
    await db.query(
      `INSERT INTO users (name, password_hash) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET password_hash = EXCLUDED.password_hash`,
      [user.name, await hashPassword(user.password)],
    );
  }
  const [{ count } = { count: 0 }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
  if (count > 0) return undefined;
  const demo = { name: 'demo', password: randomBytes(12).toString('base64url') };
  await db.query('INSERT INTO users (name, password_hash) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [demo.name, await hashPassword(demo.password)]);
  return demo;
}

/** True when the name and password match a user; as slow for unknown users as for known ones. */
export async function checkCredentials(db: Database, name: string, password: string): Promise<boolean> {
  const [row] = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE name = $1', [name]);
  const matches = await verifyPassword(password, row?.password_hash ?? (await decoyHash));
  return matches && row !== undefined;
}

/** The HS256 key: JES_JWT_SECRET, or one generated once and stored, shared by every process on the database. */
export async function signingKey(db: Database, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db.query(`INSERT INTO settings (key, value) VALUES ('jwt_secret', $1) ON CONFLICT (key) DO NOTHING`, [randomBytes(48).toString('base64url')]);
  const [row] = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'jwt_secret'`);
  return new TextEncoder().encode(row!.value);
}
