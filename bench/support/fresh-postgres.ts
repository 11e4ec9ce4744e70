// A throw-away PostgreSQL database for a benchmark run, as the server's tests make theirs: created on the
// PostgreSQL at JES_BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards.
// When none answers (or the URL is not on this machine) the caller gets the reason to print instead.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const postgresAdminUrl = process.env.JES_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshPostgres(): Promise<FreshDatabase | { skip: string }> {
  const admin = new URL(postgresAdminUrl);
  // A benchmark loads what it talks to: this machine only.
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(admin.hostname))
    return {
      skip: `JES_BENCH_POSTGRES_URL names ${admin.hostname}; the benchmark uses a PostgreSQL on this machine only`,
    };
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch (error) {
    return { skip: `no PostgreSQL at ${admin.host} (${(error as Error).message}); set JES_BENCH_POSTGRES_URL` };
  }
  const name = `jes_bench_${randomBytes(6).toString('hex')}`;
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: postgresAdminUrl });
      await again.connect();
      try {
        await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await again.end();
      }
    },
  };
}
