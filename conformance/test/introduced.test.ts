// A deployment without the event streams and webhooks (issue 31, contract 1.7.0): a proxy in front of the reference
// server answers their paths 404 not_found, as a 1.6 server does. Reporting contract 1.6.0 in GET /healthz, the
// checks of what 1.7.0 brought are skipped, saying so; reporting 1.7.0 (or nothing), they fail: the contract the
// suite holds it to has them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../src/index.ts';
import { versionBefore } from '../src/introduced.ts';
import { type Breakage, editJson, jsonAnswer } from './support/broken-proxy.ts';
import { startBrokenProxy } from './support/broken-proxy.ts';
import { credentials, printed, type Started, startReference, webhookListen } from './support/targets.ts';

const only = ['job_events', 'job_events_resume', 'user_events', 'webhook_delivery', 'webhook_retry'];

let reference: Started;
beforeAll(async () => {
  reference = await startReference();
});
afterAll(() => reference?.stop());

/** A deployment of `reported` (undefined: it does not say) without the streams and webhooks. */
const older = (reported: string | undefined): Breakage => ({
  request: (r) =>
    /^\/(job\/[^/]+\/events|events|webhook)(\?|$)/.test(r.url)
      ? jsonAnswer(
          404,
          {
            type: 'urn:jes:problem:not_found',
            title: 'Not found',
            status: 404,
            code: 'not_found',
            request_id: 'older-deployment',
          },
          { 'x-request-id': 'older-deployment' },
        )
      : r,
  response: (r, answer) =>
    r.url === '/healthz'
      ? editJson(answer, (body) =>
          reported === undefined ? delete body.contract_version : (body.contract_version = reported),
        )
      : answer,
});

async function statuses(reported: string | undefined) {
  const proxy = await startBrokenProxy(reference.url, older(reported));
  try {
    const report = await runConformance({ baseUrl: proxy.url, ...credentials, ...webhookListen, only });
    return { report, results: report.results.map((r) => [r.name, r.status, r.reason ?? r.failures[0]?.message]) };
  } finally {
    await proxy.close();
  }
}

it('compares versions by major, minor and patch', () => {
  expect(versionBefore('1.6.0', '1.7.0')).toBe(true);
  expect(versionBefore('1.10.0', '1.7.0')).toBe(false);
  expect(versionBefore('1.7.0', '1.7.0')).toBe(false);
  expect(versionBefore('0.9.9-beta', '1.7.0')).toBe(true);
  expect(versionBefore('latest', '1.7.0')).toBeUndefined();
});

it('skips what 1.7.0 brought for a deployment that reports 1.6.0, saying so', async () => {
  const { report, results } = await statuses('1.6.0');
  for (const [name, status, reason] of results) {
    expect(status, printed(report)).toBe('skipped');
    // job_events_resume and user_events share job_events' followed job, webhook_retry webhook_delivery's run.
    expect(reason, `${name}`).toMatch(
      /the deployment reports contract 1\.6\.0, and GET \/(job\/\{job_id\}\/events|events|webhook) came in 1\.7\.0/,
    );
  }
});

it.each([
  ['contract 1.7.0', '1.7.0'],
  ['no contract version', undefined],
])('fails them for a deployment that reports %s', async (_, reported) => {
  const { report, results } = await statuses(reported);
  for (const [name, status, message] of results) {
    expect(status, printed(report)).toBe('failed');
    expect(message, `${name}`).toMatch(
      /answered 404 not_found, as a path the deployment does not have; the contract has it since 1\.7\.0/,
    );
  }
});
