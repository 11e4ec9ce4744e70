// The clock set: the test files whose verdict could depend on the date or the hour they run at. A test once pinned
// "now" to the day it was written and compared it with a job started by the real clock; it passed that day and
// failed on every day after (issue 26). dates.test.ts runs these files again under faketime, a year ahead and
// across a New Year's Eve in a time zone 14 hours ahead of UTC; set.test.ts scans every test file for clock readings
// and fixed instants, so that each one that has any is named here, in one list or the other, with a reason.

/** Run again under faketime: they read the clock, inject one, or compare instants across a day's or year's end. */
export const clockSet: Record<string, string> = {
  'server/test/running-answer.test.ts': "a running job's answer at instants injected from its execution's start",
  'server/test/tokens.test.ts': 'token lifetimes and skew on an injected clock, across a year boundary',
  'server/test/auth.test.ts': "tokens signed at this process's now, judged by the server's",
  'server/test/event-stream-expiry.test.ts': "a token signed at this process's now, its expiry judged by the server's",
  'server/test/retention.test.ts': 'rows aged from the clock passed to retention, against rows the server stamped',
  'server/test/idempotency.test.ts': "keys aged by the database's now() and swept by its clock",
  'server/test/leases.test.ts': "leases expired and renewed by the database's now()",
  'server/test/format.test.ts': "the documented timestamps of instants around a year's end, and of a job just run",
  'client/test/result.test.ts': "Retry-After as an HTTP date on a clock set across a year's end",
  'client/test/verify-webhook.test.ts':
    "deliveries stamped by this process's clock, judged within five minutes of the same clock by verifyWebhook",
  'conformance/test/generate.test.ts': 'documented timestamps parsed and compared with their RFC 3339 twins',
  'conformance/test/rate-limit-pacing.test.ts': 'pacing on an injected clock',
  'test/contract/contract.test.ts': "the contract's example timestamps, which must agree with each other",
  'sandbox/test/stream-token-expiry.test.ts':
    "a stream ended by its token's expiry on a clock moved an hour ahead of the real one",
  'sandbox/test/state-transcript.test.ts':
    "a clock injected into each sandbox, from this process's now and moved a minute on: its tokens and jobs judged by it",
  'sandbox/test/webhooks.test.ts':
    "deliveries stamped by the sandbox's clock (webhook-timestamp, timestamps of the job's change) and checked by standardwebhooks against the same clock",
};

/** Read the clock or name an instant, but no verdict depends on when they run: each says why. */
export const clockFree: Record<string, string> = {
  'server/test/readiness.test.ts':
    "a drain's and a probe's durations, performance.now against itself; polling deadlines on Date.now against itself",
  'server/test/support/server.ts': 'Date.now bounds how long a wait may last, nothing more',
  'server/test/chaos-postgres.test.ts':
    "PostgreSQL only: measures the delay between the database server's clock and ours, which faketime cannot move together",
  'server/test/database-outage.test.ts':
    "PostgreSQL only: measures the delay between the database server's clock and ours, which faketime cannot move together",
  'server/test/job-end-order.test.ts': "PostgreSQL only: orders two instants the database's now() gave",
  'server/test/response-validation.test.ts': "now() fills an ended job's column; no verdict reads a time",
  'server/test/data-dir.test.ts':
    "the fixed date is a lock's claimed start, compared with a process's identity, not a clock",
  'client/test/suites/cli.ts': 'Date.now makes an idempotency key unique',
  'client/test/suites/retries.ts': 'Date.now makes an upload and a key unique',
  'client/test/event-stream.test.ts': "a fixed instant in the hostile server's events, only passed through: no clock",
  'client/test/support/fetches.ts': "a token forged at this process's now for a client on the same clock",
  'conformance/test/auth.test.ts':
    "a token expired an hour before this process's now, refused by a server on the same clock; performance.now times the file",
  'conformance/test/har.test.ts': 'performance.now times its runs; no verdict reads a clock',
  'conformance/test/support/tls.ts':
    "certificates valid for a day from this process's now, for a proxy and a client on the same clock",
  'conformance/test/terminal-watch.test.ts':
    'fixed instants compared with each other and with their RFC 3339 twins, never with the clock',
  'conformance/test/broken.test.ts':
    'shifts fixed timestamps by hours across a day, month, leap day and year: no clock',
  'conformance/test/support/breakages.ts': "shifts the server's own timestamps by hours with Date arithmetic",
  'test/app/dashboard.test.ts': 'Date.now times how long a page takes to show',
  'test/app/best-over-time.test.ts':
    'a fixed instant only as the origin of the instants it builds from it; nothing reads the clock',
  'test/app/dashboard-live.test.ts':
    'Date.parse compares instants of one job the server recorded with each other, never with the clock',
  'test/contract/maxcut.ts': "formats the contract's example instants, for contract.test.ts",
  'test/contract/checks/documented-shapes.ts': "fixed example instants in the contract's documented shapes",
  'test/fuzz/fuzz.test.ts': 'Date.now seeds the generator (printed, FUZZ_SEED replays it)',
  'test/fuzz/tokens.ts': "tokens signed at this process's now for a server on the same clock",
  'server/test/sliced-writes.test.ts': 'a fixed Date written as JSON, compared with JSON.stringify of it: no clock',
  'server/test/stale-reads.test.ts': "now() fills an ended job's columns; no verdict reads a time",
  'server/test/stuck-validation.test.ts': 'now() sets a lease an hour ahead, only to keep workers off a row',
  'server/test/outage-outcome.test.ts': 'PostgreSQL only: Date.now bounds how long a wait for an outage may last',
  'test/contract/breaking-changes.test.ts': 'Date.now makes a throwaway branch name unique',
  'server/test/deprecation.test.ts': "a contract's deprecation days turned into headers: fixed dates, no clock",
  'test/contract/deprecation-rules.test.ts': 'fixed deprecation days the lint must accept or refuse: no clock',
  'test/support/deprecated-contract.ts': 'a contract copy deprecating an operation on a fixed day: no clock',
  'sandbox/test/proxy.test.ts': 'new Date(0) fixes the instant a log line is printed with: no clock',
  'sandbox/test/scenarios.test.ts': 'new Date(0) fixes the instant a log line is printed with: no clock',
  'contract/test/webhooks.test.ts':
    'Date.now stamps a signature that standardwebhooks checks against this same clock; a fixed instant only for its sign()',
};

/** What counts as reading a clock or naming an instant in a test file. */
export const clockReadings: RegExp[] = [
  /\bDate\.(now|parse|UTC)\b/,
  /\bnew Date\(/,
  /\b(useFakeTimers|setSystemTime)\b/,
  /\b(19|20)\d\d-[01]\d-[0-3]\d(?!\d)/, // an ISO 8601 date
  /\b[01]\d\/[0-3]\d\/(19|20)\d\d\b/, // a documented `MM/DD/YYYY` timestamp
  /(^|[^.\w])now\(\)/, // SQL's now(), or a clock function of the test's own (not performance.now())
  /\bnow: /, // a clock injected as an option
];
