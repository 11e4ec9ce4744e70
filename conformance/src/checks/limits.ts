// limits: the body limits the contract documents, to the byte. An inline job body of one byte under the
// limit is accepted; one of exactly the limit answers 413 `payload_too_large` with `max_bytes`. The same for
// login's smaller limit. The limits are read from the contract's 413 examples.
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Node } from '../contract/document.ts';
import { graphOf } from '../maxcut.ts';
import type { Check } from './check.ts';

/** `max_bytes` of the operation's documented 413 example. */
export function maxBytes(ctx: CheckContext, operationId: string): number {
  const examples = ctx.contract.response(operationId, 413)?.content?.['application/problem+json']?.examples as Record<
    string,
    Node
  >;
  const value = Object.values(examples ?? {})[0]?.value?.max_bytes;
  if (typeof value !== 'number') throw new Error(`the contract documents no max_bytes for ${operationId}`);
  return value;
}

/** JSON of `value` padded with spaces to exactly `bytes` bytes. */
export function padded(value: unknown, bytes: number): string {
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text) > bytes) throw new Error(`the body is already ${Buffer.byteLength(text)} bytes`);
  return text + ' '.repeat(bytes - Buffer.byteLength(text));
}

/** A sparse graph whose matrix fills most of `bytes` (a ring of unit weights; "0," per other entry). */
function largeGraph(bytes: number) {
  const n = Math.floor(Math.sqrt(bytes * 0.9) / Math.SQRT2);
  return graphOf(n, (i, j) => (j === i + 1 || (i === 0 && j === n - 1) ? 1 : 0));
}

export const limits: Check = {
  name: 'limits',
  description:
    'An inline job body one byte under the documented limit (4,194,303 bytes) is accepted and one of 4,194,304 bytes answers 413 payload_too_large with max_bytes; login likewise at 65,536 bytes.',
  operations: ['startJob', 'login'],
  async run(ctx) {
    const { heuristic } = await ctx.fixtures.useCase(ctx);
    const limit = maxBytes(ctx, 'startJob');
    const graph = largeGraph(limit);
    const json = { 'content-type': 'application/json' };
    const query = { solver: heuristic.name, time_limit_seconds: 0.2 };
    const under = await ctx.send({
      method: 'POST',
      path: '/problem/maxcut',
      query,
      body: padded(graph, limit - 1),
      headers: json,
      timeoutMs: 120_000,
    });
    if (
      ctx.expectStatus(under, 200, `an inline body of ${limit - 1} bytes (a ${graph.num_nodes}-node graph)`) &&
      typeof under.json?.job === 'string'
    ) {
      await ctx.send({ method: 'POST', path: `/job/${under.json.job}/cancel` });
    }
    const over = await ctx.send({
      method: 'POST',
      path: '/problem/maxcut',
      query,
      body: padded(graph, limit),
      headers: json,
      timeoutMs: 120_000,
    });
    if (ctx.expectStatus(over, 413, `an inline body of ${limit} bytes`, 'payload_too_large')) {
      ctx.expect(
        over.json?.max_bytes === limit,
        `the 413's max_bytes is ${shown(over.json?.max_bytes)}, expected ${limit}`,
        over.exchange,
      );
    }

    const loginLimit = maxBytes(ctx, 'login');
    const credentials = { username: ctx.options.username, password: ctx.options.password };
    ctx.expectStatus(
      await ctx.send({
        method: 'POST',
        path: '/login',
        auth: 'none',
        body: padded(credentials, loginLimit - 1),
        headers: json,
      }),
      200,
      `a login body of ${loginLimit - 1} bytes`,
    );
    const loginOver = await ctx.send({
      method: 'POST',
      path: '/login',
      auth: 'none',
      body: padded(credentials, loginLimit),
      headers: json,
    });
    ctx.expectStatus(loginOver, 413, `a login body of ${loginLimit} bytes`, 'payload_too_large');
  },
};
