// What a check works with: requests recorded under its name, soft failures (a check reports every problem it finds,
// not only the first), notes for what a profile leaves out, the operations the run selected, and the run's shared
// fixtures. The members documented for checks of your own (`--checks`) are the plugin API: they keep their meaning
// across minor versions; `http` and `contract` are the suite's own and may change in any release.
import { answered } from './answer-text.ts';
import type { Contract } from './contract/contract.ts';
import type { Fixtures } from './fixtures.ts';
import { CheckAbort, CheckSkip, type Http, type Reply, type RequestSpec } from './http.ts';
import type { Terminals } from './terminal/rereads.ts';
import type { ConformanceOptions, Exchange, Failure, GeneratedCase, Profile, Versions } from './types.ts';

/** The context a check's `run` receives, one per check and run. */
export class CheckContext {
  /** The check's name: its requests are recorded under it. */
  readonly name: string;
  /** The failures recorded so far (by `fail`, `expect`, `expectStatus`); the check failed when any is here. */
  readonly failures: Failure[] = [];
  /** The notes recorded so far (`note`), printed beneath the check's line. */
  readonly notes: string[] = [];
  /** The suite's HTTP layer (not part of the plugin API: use `send`). */
  readonly http: Http;
  /**
   * The resources checks share, made once per run by the first check that asks: of these a check of your own may use
   * `useCases`, `useCase`, `finishedJob`, `dataFile`, `shared` and `atEnd` (see Fixtures).
   */
  readonly fixtures: Fixtures;
  /** The run's options, as given (`username`, `username2`, `profile`, `operations`…). */
  readonly options: ConformanceOptions;
  /** `full` or `sandbox` (a stateless mock: see `stateful`). */
  readonly profile: Profile;
  /** The fast-check seed of the run, for a check that generates cases. */
  readonly seed: number;
  /** Generated cases per target (`--runs`). */
  readonly runs: number;
  /** A few characters no other run has: see `unique`. */
  readonly runId: string;
  /** The contract versions, the deployment's as its GET /healthz said (asked before the first check). */
  readonly versions: Versions;
  /** The run's watch over ended jobs and deletions, when it runs terminal_states (undefined otherwise). */
  readonly terminals: Terminals | undefined;
  /** Requests sent so far by this check. */
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
      terminals?: Terminals | undefined;
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
    this.terminals = run.terminals;
  }

  /** The contract the run holds the deployment to (not part of the plugin API). */
  get contract(): Contract {
    return this.http.contract;
  }

  /** Whether the run is of the `sandbox` profile. */
  get sandbox(): boolean {
    return this.profile === 'sandbox';
  }

  /** Every exchange of the run so far (all checks), in the order sent. */
  get exchanges(): readonly Exchange[] {
    return this.http.exchanges;
  }

  /**
   * Whether the run selected this operation (`--operation`, `options.operations`): true of every operation when none
   * was named. A check that covers every operation sends its requests to the selected ones only.
   */
  selected(operationId: string): boolean {
    const { operations } = this.options;
    return !operations?.length || operations.includes(operationId);
  }

  /**
   * Sends a request to the deployment as the run's user (`auth: 'user2'` the second one, `'none'` no token), keeping
   * to its rate limits; resolves to the answer whatever its status (a connection that fails stops the check). The
   * exchange is recorded under the check's name.
   */
  send(spec: RequestSpec): Promise<Reply> {
    this.requests++;
    return this.http.send(this.name, spec);
  }

  /**
   * Records a failure, with the exchange that shows it (printed with a command that sends its request again); one
   * found by a generated case says which (generate/property.ts).
   */
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

  /** Like expectStatus, but stops the check (a failure) when the answer is not the expected one; returns the reply. */
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

  /** Adds a note beneath the check's line (once per text). */
  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** Runs `part` in the full profile; in the sandbox profile leaves it out with a note saying why. */
  async stateful(what: string, reason: string, part: () => Promise<void>): Promise<void> {
    if (this.sandbox) return this.note(`skipped in the sandbox profile: ${what} (${reason})`);
    await part();
  }

  /** A name no other run uses, for the resources this run creates (`jes-conformance-<run>-<label>`). */
  unique(label: string): string {
    return `jes-conformance-${this.runId}-${label}`;
  }
}
