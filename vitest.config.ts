import { existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files of a whole run (npm test at 27e7596, three workers, 15 s and up: the first 45), started first,
 * longest first. A fresh clone has no durations cached, and vitest then starts the larger files first. The list
 * measured before (at af6276c) had gone stale: files made slower since (fresh-cluster.test, 86 s) or left off it started
 * in the last minutes and ran on alone, one or two files at a time, for the last five minutes of a 1,417 s run whose
 * three workers' ideal was 1,026 s.
 */
const longest = [
  'test/packages/packages.test.ts',
  'client/test/server.test.ts',
  'test/docs/browser.test.ts',
  'test/fuzz/fuzz.test.ts',
  'conformance/test/broken.test.ts',
  'server/test/abuse-limits.test.ts',
  'server/test/data-dir.test.ts',
  'test/docs/code-samples.test.ts',
  'server/test/fresh-cluster.test.ts',
  'server/test/space.test.ts',
  'server/test/disk-full.test.ts',
  'test/clock/dates.test.ts',
  'server/test/users.test.ts',
  'test/app/dashboard.test.ts',
  'conformance/test/cli.test.ts',
  'server/test/webhook-durability.test.ts',
  'server/test/worker-durability.test.ts',
  'conformance/test/sandbox.test.ts',
  'server/test/sigkill.test.ts',
  'server/test/database-outage.test.ts',
  'conformance/test/reproduce.test.ts',
  'server/test/outage-outcome.test.ts',
  'server/test/log-format.test.ts',
  'conformance/test/rate-limit.test.ts',
  'conformance/test/postgres.test.ts',
  'server/test/listen.test.ts',
  'server/test/input-races.test.ts',
  'client/test/sandbox.test.ts',
  'server/test/metrics-hostile.test.ts',
  'server/test/retention.test.ts',
  'server/test/stuck-validation.test.ts',
  'sandbox/test/scenarios.test.ts',
  'server/test/multi-process.test.ts',
  'server/test/solver-teams.test.ts',
  'server/test/errors.test.ts',
  'test/bench/sandbox-bench.test.ts',
  'server/test/readiness.test.ts',
  'server/test/lifecycle.test.ts',
  'sandbox/test/sandbox-docs.test.ts',
  'test/app/dashboard-live.test.ts',
  'test/app/service-origin.test.ts',
  'conformance/test/deprecation.test.ts',
  'server/test/durability.test.ts',
  'server/test/settings.test.ts',
  'server/test/event-streams-hostile.test.ts',
];
// A file renamed or removed must leave this list too, or its place would go unnoticed.
for (const name of longest)
  if (!existsSync(join(import.meta.dirname, name))) throw new Error(`vitest.config.ts: ${name} no longer exists`);

// Every Node process a run starts (vitest's workers, and the servers, commands and scripts the tests spawn: hundreds)
// compiled the same unchanged files again. Node's compile cache keeps their compiled code, and TypeScript stripped of
// its types, between processes, each entry checked against its file's contents, so an edited file is compiled afresh:
// conformance/test/cli.test.ts took 17% less CPU, eight in-process server test files 6%, a server's start 11%. A cache
// set outside (NODE_COMPILE_CACHE) is kept, and NODE_DISABLE_COMPILE_CACHE=1 turns it off.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'jes-node-compile-cache');

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = longest.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return at < 0 ? longest.length : at;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  // A @jes package imported by name resolves to its TypeScript sources, as `node --conditions=jes-source` does. Not
  // under `module`, a bundlers' condition Node does not know: @opentelemetry/api's build for it imports files without
  // their extensions, and Node failed to load it when prom-client (externalized, as Node runs it) required it.
  ssr: { resolve: { conditions: ['jes-source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    include: ['test/**/*.test.ts', '{contract,server,client,conformance,sandbox}/test/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./server/test/support/no-server-errors.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's default of 1 s was met on a loaded machine by a page's first load (dashboard-live.test, a full
    // run): 10 s unless a poll says otherwise. A poll that passes returns at once; only a failure waits it out.
    expect: { poll: { timeout: 10_000 } },
    // Vitest's default (one core left for itself) leaves a 2-core machine one worker: 736 s for .ci/run against
    // 468 s with two, as most of the time the tests wait on servers, databases and solver threads, not the CPU.
    // With the event streams and webhooks (issue 31) two workers kept the 2 cores 80% busy over 18 minutes: three.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    // A worker runs file after file in one process instead of a process a file: the modules every file imports (the
    // server's, Express, PGlite, Ajv) are loaded once a worker, not 161 times. 25 server test files took 161 CPU-s
    // against 220 (89 s against 121); nothing a file leaves in a module (a 5xx seen, no-server-errors.ts) may fail
    // the next.
    isolate: false,
  },
});
