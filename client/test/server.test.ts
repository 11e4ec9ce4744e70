// Everything that needs the reference server, in one file so that the servers start once: the server
// (spawned through its command line, never imported) and a second one with a tiny rate limit, started
// side by side. Each suite lives in suites/.
import { afterAll, beforeAll } from 'vitest';
import { type Servers, type Started, startServer } from './support/processes.ts';
import { cliSuite } from './suites/cli.ts';
import { clientSuite } from './suites/client.ts';
import { dataFilesSuite } from './suites/data-files.ts';
import { eventsSuite } from './suites/events.ts';
import { readmeSuite } from './suites/readme.ts';
import { retriesSuite } from './suites/retries.ts';
import { waitingSuite } from './suites/waiting.ts';
import { webhooksSuite } from './suites/webhooks.ts';

const servers: Servers = { main: '', rateLimited: '' };
let started: Started[] = [];

beforeAll(async () => {
  // The main server may call a webhook receiver on this machine (suites/webhooks.ts).
  started = await Promise.all([
    startServer({ JES_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }),
    // Two requests per 4 s: a client's first poll after the quota is used up is refused even on a loaded machine
    // (with 2/1 a full run's stall let the window renew first: 200, not the 429 suites/waiting.ts waits after).
    startServer({ JES_RATE_LIMITS: 'default=2/4' }),
  ]);
  [servers.main, servers.rateLimited] = started.map((s) => s.url) as [string, string];
});
afterAll(() => Promise.all(started.map((s) => s.stop())));

clientSuite(servers);
waitingSuite(servers);
eventsSuite(servers);
dataFilesSuite(servers);
cliSuite(servers);
readmeSuite(servers);
retriesSuite(servers);
webhooksSuite(servers);
