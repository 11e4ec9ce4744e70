// runConformance: every selected check in the registry's order against one deployment, with one session per
// user, fixtures shared between checks, and the run's resources cleaned up at the end.
import { randomBytes } from 'node:crypto';
import { checks } from './checks/registry.ts';
import { CheckContext } from './context.ts';
import { Contract } from './contract/contract.ts';
import { Fixtures } from './fixtures.ts';
import { CheckAbort, Http } from './http.ts';
import type { CheckResult, ConformanceOptions, Report } from './types.ts';

/** The fast-check seed when none is given: fixed, so that two runs generate the same cases. */
export const defaultSeed = 20261122;
export const defaultRuns = 8;

export const checkNames = (): string[] => checks.map((c) => c.name);

function sessions(http: Http, options: ConformanceOptions) {
  const logins = new Map<string, Promise<string>>();
  return (user: 'user' | 'user2', check: string): Promise<string> => {
    const [username, password] = user === 'user' ? [options.username, options.password] : [options.username2, options.password2];
    if (username === undefined || password === undefined) return Promise.reject(new CheckAbort('no credentials for a second user (--second-user name:password)'));
    if (!logins.has(user)) {
      logins.set(user, (async () => {
        const reply = await http.send(check, { method: 'POST', path: '/login', auth: 'none', json: { username, password } });
        if (reply.status !== 200 || typeof reply.json?.access_token !== 'string') throw new CheckAbort(`logging in as ${username}: expected 200 with an access_token, got ${reply.status}`, reply.exchange);
        return reply.json.access_token as string;
      })());
    }
    return logins.get(user)!;
  };
}

export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = Date.now();
  const profile = options.profile ?? 'full';
  const seed = options.seed ?? defaultSeed;
  const runs = options.runs ?? defaultRuns;
  const unknown = (options.only ?? []).filter((name) => !checkNames().includes(name));
  if (unknown.length) throw new Error(`unknown check${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the checks are ${checkNames().join(', ')}`);
  const http = new Http(options.baseUrl, new Contract(options.contractPath));
  const fixtures = new Fixtures();
  http.tokenOf = sessions(http, options);
  const run = { options, profile, seed, runs, runId: `${Date.now().toString(36)}${randomBytes(3).toString('hex')}` };
  const results: CheckResult[] = [];
  for (const check of checks) {
    if (options.only?.length && !options.only.includes(check.name)) continue;
    const base = { name: check.name, description: check.description, operations: check.operations };
    const reason = check.skip?.({ profile, options });
    let result: CheckResult;
    if (reason) {
      result = { ...base, status: 'skipped', reason, failures: [], notes: [], requests: 0, ms: 0 };
    } else {
      const ctx = new CheckContext(check.name, http, fixtures, run);
      const from = Date.now();
      try {
        await check.run(ctx);
      } catch (error) {
        if (error instanceof CheckAbort) ctx.fail(error.message, error.exchange);
        else ctx.fail(`the check itself failed: ${(error as Error).stack ?? String(error)}`);
      }
      const waited = http.waited.get(check.name);
      if (waited) ctx.note(`waited ${Math.round(waited / 1000)} s in all for the deployment's rate limits (429 with Retry-After)`);
      result = { ...base, status: ctx.failures.length ? 'failed' : 'passed', failures: ctx.failures, notes: ctx.notes, requests: ctx.requests, ms: Date.now() - from };
    }
    results.push(result);
    options.onResult?.(result);
  }
  await fixtures.cleanUp();
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  return { baseUrl: options.baseUrl, profile, seed, runs, results, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), ms: Date.now() - started };
}
