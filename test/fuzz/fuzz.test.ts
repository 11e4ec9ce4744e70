// The fuzz test: every operation of the contract driven with generated valid and invalid requests, with and
// without a token, with hostile strings, numbers, headers, encodings, multipart bodies, methods and framing,
// against the reference server (embedded database, then PostgreSQL) and the sandbox, each run as a child
// process. No response may be a 5xx, every non-2xx must be a problem the contract documents, the process must
// not exit, and GET /healthz must answer 200 at the end. FUZZ_RUNS sets the cases per target (default 1,000,
// four targets: npm test's time; a larger run is one variable away),
// FUZZ_SEED the fast-check seed (printed, so that a run repeats).
import { afterAll, describe, expect, it } from 'vitest';
import { Contract } from '../../conformance/src/contract/contract.ts';
import { freshPostgres } from '../../server/test/support/server.ts';
import { type CampaignResult, runCampaign, sampleCases, type Session } from './campaign.ts';
import { sandboxFixtures, serverFixtures } from './fixtures.ts';
import { startSandbox, startServer } from './processes.ts';
import { formatFailures } from './report.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 1000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const contract = new Contract();
const cases = sampleCases(contract, seed, runs);
const postgres = await freshPostgres();
if ('skip' in postgres)
  console.warn(`skipping the fuzz run against the reference server on PostgreSQL: ${postgres.skip}`);

function summary(name: string, result: CampaignResult): string {
  const statuses = Object.entries(result.statuses)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const operations = Object.entries(result.byOperation)
    .sort((a, b) => b[1] - a[1])
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  const limited = Object.entries(result.rateLimited)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const slowest = result.slowest
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((s) => `${(s.ms / 1000).toFixed(1)} s ${s.what}`)
    .join('; ');
  return [
    `fuzz ${name}: ${result.cases} cases as ${result.users} users, ${result.requests} requests in ${result.seconds.toFixed(1)} s (${result.startSeconds.toFixed(1)} s to start and set up),`,
    `  ${result.phases.map((p) => `cases ${p.from}–${p.to - 1} on ${p.name}`).join(', ')}, fast-check seed ${seed} (repeat: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npx vitest run test/fuzz)`,
    `  statuses: ${statuses}; 429s: ${limited || 'none'}${result.crashes ? `; the process exited ${result.crashes} times (${result.restartSeconds.toFixed(1)} s to start it again)` : ''}`,
    `  by operation: ${operations}`,
    ...(result.slowest.length
      ? [`  ${result.slowest.length} answers took over a second; the slowest: ${slowest}`]
      : []),
  ].join('\n');
}

/** Runs the campaign and fails with every distinct failure, its request, its response and the target's log. */
async function fuzz(
  name: string,
  start: (users: number, env: Record<string, string>) => Promise<Session>,
  stateful: boolean,
): Promise<void> {
  const result = await runCampaign({ contract, start, cases, stateful });
  console.log(summary(name, result));
  const report = result.failures.length ? formatFailures(name, result.failures) : '';
  expect(result.failures.length, report).toBe(0);
  if (runs >= 500) {
    for (const op of contract.operations)
      expect(result.byOperation[op.operation.operationId] ?? 0, `requests that reached ${op.label}`).toBeGreaterThan(0);
  }
}

const servers = [
  { name: 'the reference server on the embedded database', env: {} as Record<string, string>, skip: false },
  {
    name: 'the reference server on PostgreSQL',
    env: 'skip' in postgres ? {} : { DATABASE_URL: postgres.url },
    skip: 'skip' in postgres,
  },
];

describe.each(servers)('fuzz: $name', ({ name, env, skip }) => {
  it.skipIf(skip)(
    `answers ${runs} generated requests without a server error, with documented problems`,
    async () => {
      await fuzz(
        name,
        async (users, phaseEnv) => {
          const target = await startServer(users, { ...env, ...phaseEnv });
          try {
            return { target, fixtures: await serverFixtures(target.url, users) };
          } catch (error) {
            await target.stop();
            throw new Error(`${(error as Error).message}; the server's output:\n${target.output().slice(-5000)}`);
          }
        },
        true,
      );
    },
    300_000,
  );
});

// The stateful sandbox (its default) as a deployment: users that log in, a job that has ended and a READY data
// file each (any password logs in; a token of the fuzz's own making is refused, as a deployment refuses it).
describe('fuzz: the stateful sandbox', () => {
  it(`answers ${runs} generated requests without a server error, with documented problems`, async () => {
    await fuzz(
      'the stateful sandbox',
      async (users) => {
        const target = await startSandbox(false);
        return { target, fixtures: await serverFixtures(target.url, users) };
      },
      true,
    );
  }, 300_000);
});

describe('fuzz: the stateless sandbox', () => {
  it(`answers ${runs} generated requests without a server error, with documented problems`, async () => {
    await fuzz(
      'the sandbox',
      async () => {
        const target = await startSandbox();
        return { target, fixtures: await sandboxFixtures(target.url) };
      },
      false,
    );
  }, 300_000);
});

afterAll(async () => {
  if (!('skip' in postgres)) await postgres.drop();
});
