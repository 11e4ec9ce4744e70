// limits: the body limits the contract documents, to the byte. An inline job body of one byte under the
// limit is accepted; one of exactly the limit answers 413 `payload_too_large` with `max_bytes` (for every
// listed use case, with an input of copies of its example filling most of it). The same for login's smaller
// limit. The limits are read from the contract's 413 examples. Narrowed to some operations (--operation), those alone.
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Node } from '../contract/document.ts';
import { largeInput, sizeOf } from '../inputs.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { type Check, tokenInstead } from './check.ts';
import { startOperationOf } from './refusal.ts';

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

async function inlineLimit(ctx: CheckContext, useCase: UseCaseInfo, limit: number): Promise<void> {
  const input = largeInput(useCase.example, limit - 1);
  const size = sizeOf(useCase.example, input);
  const json = { 'content-type': 'application/json' };
  const query = { solver: useCase.heuristic.name, time_limit_seconds: 0.2 };
  const path = `/problem/${useCase.id}`;
  const under = await ctx.send({
    method: 'POST',
    path,
    query,
    body: padded(input, limit - 1),
    headers: json,
    timeoutMs: 120_000,
  });
  const what = `an inline ${useCase.id} body of ${limit - 1} bytes${size === undefined ? '' : ` (an input of size ${size})`}`;
  if (ctx.expectStatus(under, 200, what) && typeof under.json?.job === 'string') {
    await ctx.send({ method: 'POST', path: `/job/${under.json.job}/cancel` });
  }
  const over = await ctx.send({
    method: 'POST',
    path,
    query,
    body: padded(input, limit),
    headers: json,
    timeoutMs: 120_000,
  });
  if (ctx.expectStatus(over, 413, `an inline ${useCase.id} body of ${limit} bytes`, 'payload_too_large')) {
    ctx.expect(
      over.json?.max_bytes === limit,
      `the 413's max_bytes is ${shown(over.json?.max_bytes)}, expected ${limit}`,
      over.exchange,
    );
  }
}

async function loginLimit(ctx: CheckContext): Promise<void> {
  const json = { 'content-type': 'application/json' };
  const limit = maxBytes(ctx, 'login');
  if (ctx.options.username === undefined || ctx.options.password === undefined)
    return ctx.note(`the login bodies left out: ${tokenInstead}`);
  const credentials = { username: ctx.options.username, password: ctx.options.password };
  ctx.expectStatus(
    await ctx.send({
      method: 'POST',
      path: '/login',
      auth: 'none',
      body: padded(credentials, limit - 1),
      headers: json,
    }),
    200,
    `a login body of ${limit - 1} bytes`,
  );
  const loginOver = await ctx.send({
    method: 'POST',
    path: '/login',
    auth: 'none',
    body: padded(credentials, limit),
    headers: json,
  });
  ctx.expectStatus(loginOver, 413, `a login body of ${limit} bytes`, 'payload_too_large');
}

export const limits: Check = {
  name: 'limits',
  description:
    'For every listed use case, an inline job body one byte under the documented limit (4,194,303 bytes) is accepted and one of 4,194,304 bytes answers 413 payload_too_large with max_bytes; login likewise at 65,536 bytes.',
  operations: ['startMaxCutJob', 'startQuboJob', 'login'],
  async run(ctx) {
    const limit = maxBytes(ctx, 'startJob');
    for (const useCase of await ctx.fixtures.useCases(ctx))
      if (ctx.selected(startOperationOf(ctx, useCase.id))) await inlineLimit(ctx, useCase, limit);
    if (ctx.selected('login')) await loginLimit(ctx);
  },
};
