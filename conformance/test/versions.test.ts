// The suite says which contract version it holds the deployment to and which one the deployment reports (GET
// /healthz), and warns when they differ or the deployment does not say (issue 29): against the reference server,
// and against a proxy in front of it that reports another contract version, none, or a 503; on the console, in
// JUnit and in markdown.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultContractPath } from '../src/contract/document.ts';
import { type ConformanceOptions, type Report, runConformance } from '../src/index.ts';
import { type Breakage, editJson, jsonAnswer, startBrokenProxy } from './support/broken-proxy.ts';
import { conformance } from './support/command.ts';
import { credentials, type Started, startReference } from './support/targets.ts';

const contract = String(parse(readFileSync(defaultContractPath, 'utf8')).info.version);
const server = JSON.parse(readFileSync(join(import.meta.dirname, '../../server/package.json'), 'utf8')).version;
/** A check that needs a token and no job: the run stays short. */
const only = ['unsupported_method'];

let reference: Started;
beforeAll(async () => {
  reference = await startReference();
});
afterAll(() => reference?.stop());

/** What GET /healthz answers through the proxy, changed by `edit`. */
const healthz = (edit: (body: any) => void): Breakage => ({
  response: (request, answer) => (request.url === '/healthz' ? editJson(answer, edit) : answer),
});

async function runThrough(breakage: Breakage, options: Partial<ConformanceOptions> = {}): Promise<Report> {
  const proxy = await startBrokenProxy(reference.url, breakage);
  try {
    return await runConformance({ baseUrl: proxy.url, ...credentials, only, ...options });
  } finally {
    await proxy.close();
  }
}

it('holds the reference server to its own version, and says both without a warning', async () => {
  const seen: unknown[] = [];
  const report = await runConformance({
    baseUrl: reference.url,
    ...credentials,
    only,
    onVersions: (v) => seen.push(v),
  });
  expect(report.versions).toEqual({ contract, deployment: { contractVersion: contract, version: server } });
  expect(seen).toEqual([report.versions]);
  expect(report.results.map((r) => r.status)).toEqual(['passed']);
});

describe('a deployment that reports', () => {
  it('another contract version is warned about, and the run goes on', async () => {
    const report = await runThrough(healthz((body) => (body.contract_version = '1.6.0')));
    expect(report.versions).toEqual({
      contract,
      deployment: { contractVersion: '1.6.0', version: server },
      warning: `the deployment reports contract 1.6.0, this suite holds it to ${contract}: what differs between them may fail checks or go unchecked (--contract takes the openapi.yaml of 1.6.0)`,
    });
    expect(report.results.map((r) => r.status)).toEqual(['passed']);
  });

  it('no contract version is warned about', async () => {
    const report = await runThrough(healthz((body) => delete body.contract_version));
    expect(report.versions.deployment).toEqual({ version: server });
    expect(report.versions.warning).toBe(
      `the deployment does not say which contract version it implements (GET /healthz has no contract_version): if it is not ${contract}, what differs may fail checks or go unchecked`,
    );
  });

  it('a 503 on GET /healthz is warned about, its versions unknown', async () => {
    const unavailable = jsonAnswer(503, { code: 'service_unavailable' }, { 'retry-after': '5' });
    const report = await runThrough({ request: (r) => (r.url === '/healthz' ? unavailable : r) });
    expect(report.versions).toMatchObject({
      deployment: {},
      unanswered: 'GET /healthz answered 503 service_unavailable',
      warning: expect.stringMatching(/^the deployment's contract version is unknown \(GET \/healthz answered 503/),
    });
  });
});

it('prints both versions before the first check and the warning beneath, and writes them to JUnit and markdown', async () => {
  const proxy = await startBrokenProxy(
    reference.url,
    healthz((body) => (body.contract_version = '1.6.0')),
  );
  const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-versions-'));
  try {
    const run = await conformance([
      ...['--base-url', proxy.url, '--username', credentials.username, '--password', credentials.password],
      ...['--only', only[0]!, '--junit', join(dir, 'junit.xml'), '--report', join(dir, 'report.md')],
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[1]).toBe(`contract ${contract} (this suite) · deployment reports contract 1.6.0, server ${server}`);
    expect(lines[2]).toMatch(/^warning: the deployment reports contract 1\.6\.0, this suite holds it to /);
    expect(lines[3]).toMatch(/^passed +unsupported_method /);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain(
      `<property name="contract_version" value="${contract}"/><property name="deployment_contract_version" value="1.6.0"/><property name="deployment_version" value="${server}"/><property name="versions_warning" value="the deployment reports contract 1.6.0`,
    );
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain(
      `\n\nVersions: contract ${contract} (this suite) · deployment reports contract 1.6.0, server ${server}.\n\n**Warning:** the deployment reports contract 1.6.0,`,
    );
  } finally {
    await proxy.close();
  }
});
