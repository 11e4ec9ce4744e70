// The clock set (set.ts) run again under Debian's faketime, at a date no one wrote a test on: from 23:59:50 UTC on
// the next 31 December into the new year (over a year ahead), in the time zone farthest from UTC. A test that compares a
// fixed instant with the real clock, or writes local time where UTC is meant, fails here on the day it is written.
// PostgreSQL keeps the real clock (faketime moves only the processes it starts), so these runs use the embedded
// database. Without faketime they are skipped with the reason printed; in CI (.ci/run installs it) they fail.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clockSet } from './set.ts';

const root = join(import.meta.dirname, '../..');
const faketime = process.env.FAKETIME_PATH ?? '/usr/bin/faketime';

function faketimeMissing(): string | undefined {
  if (existsSync(faketime)) return undefined;
  if (process.env.CI) throw new Error(`faketime not found at ${faketime}; .ci/run installs Debian's faketime package`);
  const reason = `no faketime at ${faketime} (apt-get install faketime, or set FAKETIME_PATH)`;
  console.warn(`skipping the clock set's runs at other dates: ${reason}`);
  return reason;
}
const missing = faketimeMissing();

const year = new Date().getUTCFullYear();
const newYearsEve = Date.UTC(year + 1, 11, 31, 23, 59, 50);
// One run covers both: over a year ahead, across the turn of a year, in the zone farthest ahead of UTC (where the
// local date is already 1 January while UTC's is still 31 December). Two runs (a year ahead in Kiritimati, the new
// year in St John's) cost npm test a minute more for what this one run catches too.
const runs = [
  {
    when: `from ${new Date(newYearsEve).toISOString()} into ${year + 2}, over a year ahead`,
    offsetMs: newYearsEve - Date.now(),
    timeZone: 'Pacific/Kiritimati', // UTC+14
  },
];

interface JsonReport {
  startTime: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
  }[];
}

const scratch = mkdtempSync(join(tmpdir(), 'jes-clock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** vitest over the clock set with the clock moved by `offsetMs`: its exit code and what it printed. */
function runMoved(offsetMs: number, timeZone: string, report: string) {
  const offset = `${offsetMs >= 0 ? '+' : ''}${Math.round(offsetMs / 1000)}s`; // the same offset in every process
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  // Without isolation the files of a worker share its modules (the server's, PGlite's), imported once instead of once
  // per file: the set took 40% less CPU (101 s, 61 s). Each file runs isolated in npm test's own run; this run is
  // there for the clock, which faketime moves from the process's start, before any module reads it.
  const args = [
    'run',
    '--reporter=json',
    `--outputFile=${report}`,
    '--maxWorkers=2',
    '--no-isolate',
    ...Object.keys(clockSet),
  ];
  const child = spawn(faketime, ['-f', offset, process.execPath, vitest, ...args], {
    cwd: root,
    env: {
      ...process.env,
      TZ: timeZone,
      FAKETIME_DONT_FAKE_MONOTONIC: '1', // timers and timeouts keep the real pace
      JES_TEST_POSTGRES_URL: 'off',
      JES_TEST_POSTGRES_OFF: "faketime moves this run's clock, not the database server's",
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
}

/** Each failure of the report, one line per test or file. */
const failures = (report: JsonReport) =>
  report.testResults.flatMap((file) => [
    ...(file.status === 'failed' && file.message ? [`${file.name}: ${file.message}`] : []),
    ...file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${file.name} > ${test.fullName}: ${test.failureMessages.join(' ').slice(0, 2000)}`),
  ]);

describe.skipIf(missing)(`the clock set at other dates${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it.each(runs)(
    'passes $when, in TZ=$timeZone, every file of it',
    async ({ offsetMs, timeZone }) => {
      const file = join(scratch, `${timeZone.replace('/', '-')}.json`);
      const before = Date.now();
      const run = await runMoved(offsetMs, timeZone, file);
      expect(existsSync(file), run.output.slice(-4000)).toBe(true);
      const report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
      // The clock did move: the run began at the date it was sent to (within the time it took to start).
      expect(Math.abs(report.startTime - (before + offsetMs))).toBeLessThan(60_000);
      expect(failures(report)).toEqual([]);
      const ran = report.testResults.filter((file) => file.assertionResults.some((test) => test.status === 'passed'));
      expect(ran.map((file) => file.name.slice(root.length + 1)).sort()).toEqual(Object.keys(clockSet).sort());
      expect(run.code, run.output.slice(-4000)).toBe(0);
    },
    300_000,
  );
});
