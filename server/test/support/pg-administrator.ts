// An administrator of a test's PostgreSQL database, for outages on purpose: terminating the server's backends
// (as a failover or an idle-session timeout would) and refusing new connections, as a database that is down does.
import pg from 'pg';
import { freshPostgres, postgresAdminUrl } from './server.ts';

export interface Administrator {
  /** Terminates every other backend on the database (or those `where` picks); returns how many. */
  terminate(where?: string): Promise<number>;
  /** Refuses (or allows again) new connections to the database, superusers' included. */
  allowConnections(allow: boolean): Promise<void>;
  query: pg.Client['query'];
  end(): Promise<void>;
}

/** An administrator's connection to the database at `url`: it stays open while the database refuses new ones. */
export async function administrator(url: string): Promise<Administrator> {
  const admin = new pg.Client({ connectionString: url });
  admin.on('error', () => {});
  await admin.connect();
  const name = new URL(url).pathname.slice(1);
  return {
    async terminate(where = 'true') {
      const result = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`,
      );
      return result.rowCount ?? 0;
    },
    async allowConnections(allow) {
      // From another database: PostgreSQL will not refuse connections to the one it is asked from.
      const other = new pg.Client({ connectionString: postgresAdminUrl });
      await other.connect();
      await other
        .query(`ALTER DATABASE ${pg.escapeIdentifier(name)} WITH ALLOW_CONNECTIONS ${allow}`)
        .finally(() => other.end());
    },
    query: admin.query.bind(admin) as pg.Client['query'],
    end: () => admin.end(),
  };
}

/**
 * A fresh database for one test and an administrator's connection to it; `cleanups` (run in reverse order at
 * the end of the file) let the database take connections again (a test may have refused them) and drop it.
 */
export async function administeredDatabase(
  cleanups: (() => Promise<void>)[],
): Promise<{ url: string; admin: Administrator }> {
  const database = (await freshPostgres()) as { url: string; drop(): Promise<void> };
  cleanups.push(database.drop);
  const admin = await administrator(database.url);
  cleanups.push(async () => {
    await admin.allowConnections(true);
    await admin.end();
  });
  return { url: database.url, admin };
}
