// What a check works with: requests recorded under its name, soft failures (a check reports every
// problem it finds, not only the first), notes for what a profile leaves out, and the run's shared fixtures.
import { answered } from './answer-text.ts';
import type { Contract } from './contract/contract.ts';
import type { Fixtures } from './fixtures.ts';
import { CheckAbort, CheckSkip, type Http, type Reply, type RequestSpec } from './http.ts';
import type { ConformanceOptions, Exchange, Failure, GeneratedCase, Profile, Versions } from './types.ts';

export class CheckContext {
  readonly name: string;
  readonly failures: Failure[] = [];
  readonly notes: string[] = [];
  readonly http: Http;
  readonly fixtures: Fixtures;
  readonly options: ConformanceOptions;
  readonly profile: Profile;
  readonly seed: number;
  readonly runs: number;
  readonly runId: string;
  /** The contract versions, the deployment's as its GET /healthz said (asked before the first check). */
  readonly versions: Versions;
  requests = 0;

  constructor(
    name: string,
    http: Http,
    fixtures: Fixtures,
    run: {
      options: ConformanceOptions;
      profile: Profile;
      seed: number;
      runs: number;
      runId: string;
      versions: Versions;
    },
  ) {
    this.name = name;
    this.http = http;
    this.fixtures = fixtures;
    this.options = run.options;
    this.profile = run.profile;
    this.seed = run.seed;
    this.runs = run.runs;
    this.runId = run.runId;
    this.versions = run.versions;
  }

  get contract(): Contract {
    return this.http.contract;
  }

  get sandbox(): boolean {
    return this.profile === 'sandbox';
  }

  /** Every exchange of the run so far (all checks). */
  get exchanges(): readonly Exchange[] {
    return this.http.exchanges;
  }

  send(spec: RequestSpec): Promise<Reply> {
    this.requests++;
    return this.http.send(this.name, spec);
  }

  /** Records a failure; one found by a generated case says which (generate/property.ts). */
  fail(message: string, exchange?: Exchange, generated?: GeneratedCase): void {
    this.failures.push({ message, ...(exchange ? { exchange } : {}), ...(generated ? { generated } : {}) });
  }

  /** Records a failure unless `ok`; returns `ok`. */
  expect(ok: boolean, message: string, exchange?: Exchange): boolean {
    if (!ok) this.fail(message, exchange);
    return ok;
  }

  /** Expects an answer with `status` and, for a problem, its `code`; returns whether it matched. */
  expectStatus(reply: Reply, status: number, what: string, code?: string): boolean {
    const ok = reply.status === status && (code === undefined || reply.json?.code === code);
    return this.expect(
      ok,
      `${what}: expected ${status}${code ? ` ${code}` : ''}, got ${answered(reply)}`,
      reply.exchange,
    );
  }

  /** Like expectStatus, but stops the check when the answer is not the expected one. */
  require(reply: Reply, status: number, what: string, code?: string): Reply {
    if (reply.status !== status || (code !== undefined && reply.json?.code !== code)) {
      throw new CheckAbort(
        `${what}: expected ${status}${code ? ` ${code}` : ''}, got ${answered(reply)}`,
        reply.exchange,
      );
    }
    return reply;
  }

  /** Stops the check as skipped (what it is about is not there, such as a use case the deployment does not list). */
  skip(reason: string): never {
    throw new CheckSkip(reason);
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** Runs `part` in the full profile; in the sandbox profile leaves it out with a note saying why. */
  async stateful(what: string, reason: string, part: () => Promise<void>): Promise<void> {
    if (this.sandbox) return this.note(`skipped in the sandbox profile: ${what} (${reason})`);
    await part();
  }

  /** A name no other run uses, for the resources this run creates. */
  unique(label: string): string {
    return `jes-conformance-${this.runId}-${label}`;
  }
}
