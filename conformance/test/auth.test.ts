// Authentication and transport: a run on tokens alone, a given token the deployment refuses, a deployment behind
// TLS with a private CA and one that asks for a client certificate (also through the command, with its flags and
// its variables), the standard proxy variables, and the one-line errors of options that cannot work. One reference
// server for the file, behind a TLS proxy and a mutual-TLS proxy made here; each run is one to three quick checks.
import { createHmac } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jwtSecret } from '../../client/test/support/processes.ts';
import { type ConformanceOptions, type Report, runConformance } from '../src/index.ts';
import { run } from '../src/program.ts';
import { optionNames, tlsSettings } from '../src/transport.ts';
import {
  type Certificates,
  type Listening,
  makeCertificates,
  startForwardProxy,
  startTlsProxy,
} from './support/tls.ts';
import { credentials, printed, type Started, startReference, users } from './support/targets.ts';

let server: Started;
let certificates: Certificates;
let tls: Listening;
let mutualTls: Listening;
let forward: Listening & { carried: string[] };
const started = performance.now();

beforeAll(async () => {
  [server, certificates] = await Promise.all([startReference(), makeCertificates()]);
  [tls, mutualTls, forward] = await Promise.all([
    startTlsProxy(server.url, certificates),
    startTlsProxy(server.url, certificates, { clientCertificate: true }),
    startForwardProxy(),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([tls?.close(), mutualTls?.close(), forward?.close()]);
  await server?.stop();
  console.log(`auth.test.ts: ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

const statuses = (report: Report) => Object.fromEntries(report.results.map((r) => [r.name, r.status]));
const only = (...checks: string[]) => ({ only: checks });

async function tokenOf(username: keyof typeof users): Promise<string> {
  const res = await fetch(`${server.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: users[username] }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Runs `body` with these variables set (undefined: unset), then puts them back. */
async function withEnvironment<T>(variables: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  };
  set(variables);
  try {
    return await body();
  } finally {
    set(before);
  }
}

const noProxies = Object.fromEntries(
  ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'].flatMap((name) => [
    [name, undefined],
    [name.toLowerCase(), undefined],
  ]),
);

it('runs on tokens alone: only what needs the password itself is left out, each with a note', async () => {
  const options: ConformanceOptions = {
    baseUrl: server.url,
    token: await tokenOf('alice'),
    token2: await tokenOf('bob'),
  };
  const report = await runConformance({ ...options, ...only('ignored_auth', 'isolation', 'limits') });
  expect(statuses(report), printed(report)).toEqual({ ignored_auth: 'passed', isolation: 'passed', limits: 'passed' });
  const notes = (name: string) => report.results.find((r) => r.name === name)!.notes;
  const instead = 'a token was given instead of a username and password';
  expect(notes('ignored_auth')).toContain(`the password as Basic credentials left out: ${instead}`);
  expect(notes('limits')).toContain(`the login bodies left out: ${instead}`);
  expect(report.coverage.operations.find((op) => op.operationId === 'login')!.requests).toBe(0);
});

it('says in one line that a given token was refused, and when it expired', async () => {
  // alice's token signed again with the server's key, an hour past its exp.
  const [header, payload] = (await tokenOf('alice')).split('.');
  const now = Math.floor(Date.now() / 1000);
  const claims = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), iat: now - 7200, exp: now - 3600 };
  const body = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const expired = `${body}.${createHmac('sha256', jwtSecret).update(body).digest('base64url')}`;
  const report = await runConformance({
    baseUrl: server.url,
    token: expired,
    ...only('idempotency', 'use_after_free'),
  });
  const line = new RegExp(
    `^the deployment refused the token \\(--token\\) given to the run: \\w+ /\\S* answered 401 invalid_token; it expired at ${new Date((now - 3600) * 1000).toISOString()} \\(its exp\\): give a new one$`,
  );
  // The first request with it says so, and every check after it fails with the same line, sending nothing.
  for (const result of report.results) {
    expect(result.status, printed(report)).toBe('failed');
    expect(result.failures.map((f) => f.message)).toEqual([expect.stringMatching(line)]);
  }
  const sent = report.coverage.operations.reduce((n, op) => n + op.requests, report.coverage.elsewhere.requests);
  expect(sent, 'GET /healthz and the one request refused').toBe(2);
});

it('stops with one line saying what to do when the TLS handshake fails, and passes with --ca-file, --cert and --key', async () => {
  const run = (baseUrl: string, tlsFiles: Partial<ConformanceOptions> = {}) =>
    withEnvironment(noProxies, () => runConformance({ baseUrl, ...credentials, ...tlsFiles, ...only('missing_auth') }));
  const unknownCa = await run(tls.url);
  expect(unknownCa.unreachable?.message).toBe(
    `target ${tls.url} failed TLS on GET /healthz (SELF_SIGNED_CERT_IN_CHAIN): its certificate is signed by a CA this run does not trust: give that CA with --ca-file (caFile); 1 check not run`,
  );
  const caFile = certificates.ca.certFile;
  // Trusted besides the default roots, not instead of them.
  expect(tlsSettings({ caFile }, optionNames).ca).toEqual(
    expect.arrayContaining([rootCertificates[0], certificates.ca.cert]),
  );
  expect(statuses(await run(tls.url, { caFile }))).toEqual({ missing_auth: 'passed' });
  const noCertificate = await run(mutualTls.url, { caFile });
  expect(noCertificate.unreachable?.tls).toMatch(
    /if it asks for a client certificate, give one with --cert and --key$/,
  );
  const client = { caFile, certFile: certificates.client.certFile, keyFile: certificates.client.keyFile };
  const mutual = await run(mutualTls.url, client);
  expect(statuses(mutual), printed(mutual)).toEqual({ missing_auth: 'passed' });
});

it('goes through the proxies HTTPS_PROXY and HTTP_PROXY name (either case), and straight where NO_PROXY says', async () => {
  const carried = async (variables: Record<string, string>, baseUrl: string, tlsFiles: Partial<ConformanceOptions>) => {
    forward.carried.length = 0;
    const report = await withEnvironment({ ...noProxies, ...variables }, () =>
      runConformance({ baseUrl, ...credentials, ...tlsFiles, ...only('missing_auth') }),
    );
    expect(statuses(report), printed(report)).toEqual({ missing_auth: 'passed' });
    return [...forward.carried];
  };
  const client = {
    caFile: certificates.ca.certFile,
    certFile: certificates.client.certFile,
    keyFile: certificates.client.keyFile,
  };
  // https:// in a CONNECT tunnel, the CA and the client certificate inside it; http:// as absolute URIs, each request.
  const tunnelled = await carried({ https_proxy: forward.url }, mutualTls.url, client);
  expect(tunnelled.length).toBeGreaterThan(0);
  expect(new Set(tunnelled)).toEqual(new Set([`CONNECT ${new URL(mutualTls.url).host}`]));
  const plain = await carried({ HTTP_PROXY: forward.url }, server.url, {});
  expect(plain).toContain(`GET ${server.url}/healthz`);
  expect(plain.length).toBeGreaterThan(20);
  expect(await carried({ HTTP_PROXY: forward.url, NO_PROXY: '127.0.0.1' }, server.url, {})).toEqual([]);
  expect(await carried({ https_proxy: forward.url, no_proxy: '127.0.0.1' }, mutualTls.url, client)).toEqual([]);
});

it('takes the flags and the variables, a token instead of a password, and refuses what cannot work in one line', async () => {
  const lines = { out: [] as string[], err: [] as string[] };
  const command = (args: string[], variables: Record<string, string | undefined> = {}) => {
    lines.out.length = lines.err.length = 0;
    const quiet = Object.fromEntries(
      ['BASE_URL', 'USERNAME', 'PASSWORD', 'TOKEN', 'SECOND_TOKEN', 'HEADERS', 'CA_FILE', 'CERT', 'KEY'].map((name) => [
        `JES_CONFORMANCE_${name}`,
        undefined,
      ]),
    );
    Object.assign(quiet, noProxies);
    return withEnvironment({ ...quiet, ...variables }, () =>
      run(
        args,
        (line) => lines.out.push(line),
        (line) => lines.err.push(line),
      ),
    );
  };
  const { ca, client } = certificates;
  const flags = ['--ca-file', ca.certFile, '--cert', client.certFile, '--key', client.keyFile];
  const alice = ['--username', 'alice', '--password', users.alice];
  expect(await command(['--base-url', mutualTls.url, ...flags, ...alice, '--only', 'missing_auth'])).toBe(0);
  expect(lines.out.at(-1)).toBe('1 passed, 0 failed, 0 skipped');

  const variables = {
    JES_CONFORMANCE_BASE_URL: mutualTls.url,
    JES_CONFORMANCE_TOKEN: await tokenOf('alice'),
    JES_CONFORMANCE_CA_FILE: ca.certFile,
    JES_CONFORMANCE_CERT: client.certFile,
    JES_CONFORMANCE_KEY: client.keyFile,
    JES_CONFORMANCE_HEADERS: 'X-Gateway: one\nX-Tenant: two',
    HTTPS_PROXY: forward.url,
  };
  forward.carried.length = 0;
  expect(await command(['--only', 'missing_auth,ignored_auth'], variables), lines.out.join('\n')).toBe(0);
  expect(lines.out.at(-1)).toBe('2 passed, 0 failed, 0 skipped');
  expect(lines.out.join('\n')).toContain('the password as Basic credentials left out');
  expect(forward.carried.length).toBeGreaterThan(0);

  const refused: [string[], Record<string, string>, RegExp][] = [
    [['--cert', client.certFile], {}, /^error: --cert and --key go together/],
    [['--ca-file', '/no/such/ca.pem'], {}, /^error: --ca-file: cannot read \/no\/such\/ca\.pem \(ENOENT\)$/],
    [[], { JES_CONFORMANCE_CA_FILE: client.keyFile }, /^error: JES_CONFORMANCE_CA_FILE: .* holds no PEM certificate$/],
    [['--cert', client.certFile, '--key', ca.keyFile], {}, /^error: --cert and --key: key values mismatch$/],
    [['-H', 'X-Api-Key secret-value'], {}, /^error: -H: a header is "Name: value", and one has no colon$/],
    [[], { JES_CONFORMANCE_HEADERS: 'Authorization: Bearer x' }, /^error: JES_CONFORMANCE_HEADERS: .*--token/],
    [['--username', 'alice'], {}, /^error: --username and --password are required .* or --token/],
  ];
  for (const [args, env, message] of refused) {
    expect(await command([...args, ...(args[0] === '--username' ? [] : alice)], env), args.join(' ')).toBe(2);
    expect(lines.err).toEqual([expect.stringMatching(message)]);
    expect(lines.err.join('')).not.toContain('secret-value');
  }
});
