// The suite (profile full) against the reference server on PostgreSQL, when one answers (a throw-away
// database of its own, dropped afterwards), the webhook checks included; skipped with the reason otherwise.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshPostgres } from '../../server/test/support/server.ts';
import { runConformance } from '../src/index.ts';
import { credentials, printed, type Started, startReference, webhookHosts, webhookListen } from './support/targets.ts';

const database = await freshPostgres();
const skip = 'skip' in database ? database.skip : undefined;
let server: Started | undefined;

beforeAll(async () => {
  if (!('skip' in database)) server = await startReference({ DATABASE_URL: database.url, ...webhookHosts });
});
afterAll(async () => {
  await server?.stop();
  if (!('skip' in database)) await database.drop();
});

// Twice the default, as the PGlite run (broken.test.ts's, through its proxy breaking nothing) has: a whole run took
// more than 60 s at a load average of 20.
it.skipIf(skip)(
  `passes every check against the reference server on PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`,
  { timeout: 120_000 },
  async () => {
    const report = await runConformance({ baseUrl: server!.url, ...credentials, ...webhookListen, profile: 'full' });
    console.log(printed(report));
    expect(report.failed, printed(report)).toBe(0);
    expect(report.skipped, printed(report)).toBe(0);
  },
);
