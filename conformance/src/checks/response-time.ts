// response_time: how long the deployment took to answer, over every answer of the run (whichever check asked,
// after the tour of every operation), as Schemathesis' max_response_time. With a budget (--max-response-time) every
// answer slower than it fails, the slowest first; without one the check notes the slowest answers and each
// operation's p50/p95/max, and passes. Left out, as slow by design: event streams (read until they end) and long
// polls (`Prefer: wait=N`). The suite's waits for rate limits come before a request is sent, and its waits for
// webhook deliveries are no request's: neither is in any answer's time.
import { isEventStream } from '../event-stream.ts';
import type { Exchange } from '../types.ts';
import type { Check } from './check.ts';
import { tourAsFarAsItGoes } from './tour.ts';

/** At most this many answers over the budget are failures (the slowest); a note counts the rest. */
const maxFailures = 20;
/** The slowest answers a note names. */
const slowestNamed = 5;

type Timed = Exchange & { response: NonNullable<Exchange['response']> };

/** Why an answer is slow by design, or undefined when its time counts. */
function slowByDesign(exchange: Timed): 'event stream' | 'long poll' | undefined {
  if (isEventStream(exchange.response.headers)) return 'event stream';
  const prefer = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'prefer')?.[1];
  if (prefer !== undefined && /(^|[,;\s])wait\s*=/i.test(prefer)) return 'long poll';
  return undefined;
}

/** The nearest-rank percentile `p` (0 to 100) of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `getJob GET /job/K7Q2… → 200 in 812 ms (sent by lifecycle)`. */
function answerText(exchange: Timed): string {
  const url = new URL(exchange.request.url);
  return `${exchange.operationId ?? 'no operation'} ${exchange.request.method} ${url.pathname}${url.search} → ${exchange.response.status} in ${exchange.response.ms} ms (sent by ${exchange.check})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const responseTime: Check = {
  name: 'response_time',
  description:
    'With --max-response-time, no answer of the run takes longer than the budget (event streams and long polls left out); without one, the slowest answers and the p50/p95/max of each operation are noted.',
  operations: ['*'],
  async run(ctx) {
    // The answers so far are timed all the same; the response checks say why the tour stopped, if it did.
    await tourAsFarAsItGoes(ctx);
    const timed: Timed[] = [];
    const left = { 'event stream': 0, 'long poll': 0 };
    for (const exchange of ctx.exchanges) {
      if (!exchange.response) continue;
      const why = slowByDesign(exchange as Timed);
      if (why) left[why]++;
      else timed.push(exchange as Timed);
    }
    if (!timed.length) return ctx.note('no answer to time');
    const slowest = [...timed].sort((a, b) => b.response.ms - a.response.ms);
    const all = slowest.map((e) => e.response.ms).reverse();
    const leftOut = [
      left['event stream'] && plural(left['event stream'], 'event stream'),
      left['long poll'] && `${plural(left['long poll'], 'long poll')} (Prefer: wait)`,
    ].filter(Boolean);
    ctx.note(
      `${plural(timed.length, 'answer')} timed: p50 ${percentile(all, 50)} ms, p95 ${percentile(all, 95)} ms, max ${all.at(-1)} ms (left out as slow by design: ${leftOut.join(', ') || 'none'}; waits for rate limits and webhook deliveries are no answer's time)`,
    );
    const byOperation = new Map<string, number[]>();
    for (const exchange of timed) {
      const id = exchange.operationId ?? '(no operation)';
      byOperation.set(id, [...(byOperation.get(id) ?? []), exchange.response.ms]);
    }
    const rows = [...byOperation].map(([id, times]) => {
      const sorted = times.sort((a, b) => a - b);
      return { id, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)!, n: sorted.length };
    });
    rows.sort((a, b) => b.p95 - a.p95 || b.max - a.max);
    ctx.note(
      `per operation, p50/p95/max ms (answers), slowest first: ${rows.map((r) => `${r.id} ${r.p50}/${r.p95}/${r.max} (${r.n})`).join('; ')}`,
    );
    const budget = ctx.options.maxResponseTimeMs;
    if (budget === undefined) {
      ctx.note(`slowest answers: ${slowest.slice(0, slowestNamed).map(answerText).join('; ')}`);
      return;
    }
    const over = slowest.filter((e) => e.response.ms > budget);
    for (const exchange of over.slice(0, maxFailures))
      ctx.fail(`${answerText(exchange)}: over the budget of ${budget} ms`, exchange);
    if (over.length > maxFailures)
      ctx.note(
        `${over.length} answers took longer than ${budget} ms; the ${maxFailures} slowest are the failures above`,
      );
  },
};
