// A PostgreSQL database of the benchmark's own for one store, created and dropped by it, or the reason there is
// none (nothing answers at JES_TEST_POSTGRES_URL, by default the local test database the tests use too).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const postgresAdminUrl = process.env.JES_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> } | { skip: string }> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch (error) {
    return { skip: `no PostgreSQL at ${postgresAdminUrl} (${(error as Error).message}); set JES_TEST_POSTGRES_URL` };
  }
  const name = `jes_bench_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: postgresAdminUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}
