// The situations a client must handle, on request (docs/sandbox.md, "Scenarios"): a latency, a 429
// `rate_limited` with Retry-After and the RateLimit headers, a 503 `service_unavailable` with Retry-After, a
// connection dropped without an answer. Each is asked for per request (`Prefer: latency=300ms`,
// `Prefer: scenario=rate-limited`) or for every request by a flag (`--latency`, `--rate-limit`, `--unavailable`,
// `--drop`); what is drawn at random comes from one PRNG (pure-rand), seeded by `--seed` when the runs must repeat.
import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { drain } from './body.ts';
import { type Answer, invalidRequest, type Preferences, problem, problemAnswer } from './conventions.ts';
import type { Latency, Rate } from './durations.ts';
import type { Operation } from './mock.ts';
import { createRateLimit, rateLimitHeaders } from './rate-limit.ts';

export interface ScenarioOptions {
  /** `--latency`: every answer waits this long (a request's `Prefer: latency=…` overrides it). */
  latency?: Latency;
  /** `--rate-limit`: requests per window per client, past which an operation that documents 429 answers it. */
  rateLimit?: Rate;
  /** `--unavailable`: the fraction of requests answered 503. */
  unavailable?: number;
  /** `--drop`: the fraction of requests whose connection is dropped without an answer. */
  drop?: number;
  /** `--seed`: the PRNG's seed, for the same draws run after run (default: a new one each start). */
  seed?: number;
}

/** What becomes of a request: an answer, or its connection dropped. */
export type Staged = Answer | 'dropped';

/** The seconds a 503 (and a 429 asked for with Prefer) tells the client to wait: short, for a client's tests. */
const retrySeconds = 1;

export function createScenarios(options: ScenarioOptions = {}) {
  const random = xoroshiro128plus(options.seed ?? randomInt(2 ** 31));
  const limit = options.rateLimit && createRateLimit(options.rateLimit);
  const happens = (fraction: number | undefined) => !!fraction && uniformFloat64(random) < fraction;
  const delay = (latency: Latency | undefined) =>
    !latency ? 0 : latency.min === latency.max ? latency.min : uniformInt(random, latency.min, latency.max);

  const unavailable = (path: string, why: string) =>
    problemAnswer(
      problem(
        'service_unavailable',
        `The service is briefly out of reach (${why}); try again in ${retrySeconds} s.`,
        path,
      ),
      { 'Retry-After': String(retrySeconds) },
    );
  const limited = (path: string, why: string, retryAfter: number, headers: Record<string, string>) =>
    problemAnswer(problem('rate_limited', `Rate limit "default" reached (${why}); retry in ${retryAfter} s.`, path), {
      'Retry-After': String(retryAfter),
      ...headers,
    });

  /**
   * Stages a request to `operation`: after its latency, the scenario it asks for or a flag draws, else `answer()`
   * (with the RateLimit headers when a rate limit is set). `client` keys the rate limit.
   */
  async function stage(
    req: IncomingMessage,
    operation: Operation,
    path: string,
    prefer: Preferences,
    client: string,
    answer: () => Promise<Answer>,
  ): Promise<Staged> {
    const refuse = async (staged: Answer) => (await drain(req), staged);
    if (prefer.unreadable.length)
      return refuse(
        invalidRequest(
          path,
          prefer.unreadable.map((detail) => ({ pointer: '/header/prefer', detail })),
        ),
      );
    const documents429 = operation.responses.some((r) => r.code === '429');
    if (prefer.scenario === 'rate-limited' && !documents429)
      return refuse(
        invalidRequest(path, [
          {
            pointer: '/header/prefer',
            detail: `scenario=rate-limited: ${operation.method.toUpperCase()} ${operation.path} documents no 429`,
          },
        ]),
      );
    await sleep(delay(prefer.latency ?? options.latency));
    switch (prefer.scenario) {
      case 'dropped-connection':
        return 'dropped';
      case 'service-unavailable':
        return refuse(unavailable(path, 'Prefer: scenario=service-unavailable'));
      case 'rate-limited': {
        const rate = options.rateLimit ?? { limit: 1200, windowSeconds: 60 };
        const why = 'Prefer: scenario=rate-limited';
        return refuse(limited(path, why, retrySeconds, rateLimitHeaders(rate, 0, retrySeconds)));
      }
      // 'solver-error' is a job's end, for the stateful sandbox: a stateless one answers its example.
    }
    if (happens(options.drop)) return 'dropped';
    if (happens(options.unavailable)) return refuse(unavailable(path, '--unavailable'));
    if (!limit || !documents429) return answer();
    const counted = limit.take(client);
    if (!counted.allowed) {
      const { limit: most, windowSeconds } = options.rateLimit!;
      const why = `${most} requests per ${windowSeconds} s`;
      return refuse(limited(path, why, counted.resetSeconds, counted.headers));
    }
    // The limit's own headers replace those of the example (the contract's sample quota).
    const answered = await answer();
    const kept = Object.entries(answered.headers).filter(([name]) => !/^ratelimit(-policy)?$/i.test(name));
    return { ...answered, headers: { ...Object.fromEntries(kept), ...counted.headers } };
  }

  return { stage };
}

export type Scenarios = ReturnType<typeof createScenarios>;
