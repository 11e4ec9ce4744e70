// The suite as vitest tests, one per check, against the deployment the JES_CONFORMANCE_* variables name:
//   JES_CONFORMANCE_BASE_URL=https://jes.example.org JES_CONFORMANCE_USERNAME=… JES_CONFORMANCE_PASSWORD=… \
//     npx vitest run conformance/test/deployment.test.ts
// Skipped (with that reason) when JES_CONFORMANCE_BASE_URL is unset, as in `npm test`.
import { beforeAll, describe, expect, it } from 'vitest';
import { fromEnvironment, splitUser } from '../src/environment.ts';
import { headerLines } from '../src/given-headers.ts';
import { checkNames, type Report, runConformance } from '../src/index.ts';
import { exchangeLines } from '../src/report/exchange-text.ts';

const env = fromEnvironment();
const skip = env.baseUrl ? undefined : 'JES_CONFORMANCE_BASE_URL is not set';
let report: Report;

if (skip)
  console.warn(
    `conformance deployment test: skipping the run against your deployment: ${skip} (see conformance/README.md).`,
  );
if (skip) it.skip(`the suite against the deployment named by JES_CONFORMANCE_* (skipped: ${skip})`, () => {});
else
  describe(`the deployment at ${env.baseUrl}`, () => {
    beforeAll(async () => {
      const second = env.secondUser ? splitUser(env.secondUser) : undefined;
      // A token stands for the credentials; without either, the sandbox's.
      const credentials = env.token ? {} : { username: 'sandbox', password: 'sandbox' };
      report = await runConformance({
        baseUrl: env.baseUrl!,
        ...credentials,
        ...(env.username ? { username: env.username } : {}),
        ...(env.password ? { password: env.password } : {}),
        profile: env.profile ?? 'full',
        ...(second ? { username2: second.username, password2: second.password } : {}),
        ...(env.webhookListen ? { webhookListen: env.webhookListen } : {}),
        ...(env.token ? { token: env.token } : {}),
        ...(env.secondToken ? { token2: env.secondToken } : {}),
        ...(env.headers ? { headers: headerLines(env.headers) } : {}),
        ...(env.caFile ? { caFile: env.caFile } : {}),
        ...(env.cert ? { certFile: env.cert } : {}),
        ...(env.key ? { keyFile: env.key } : {}),
      });
    }, 600_000);

    it.each(checkNames())('%s', (name) => {
      const result = report.results.find((r) => r.name === name)!;
      if (result.status === 'skipped') return console.log(`${name} skipped: ${result.reason}`);
      const details = [
        ...(result.reason ? [result.reason] : []),
        ...result.failures.map((f) => [f.message, ...(f.exchange ? exchangeLines(f.exchange) : [])].join('\n  ')),
      ].join('\n');
      expect(result.status, details).toBe('passed');
    });
  });
