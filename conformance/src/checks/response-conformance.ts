// The five response checks (after Schemathesis' built-in ones). Each looks at every response of the run,
// whichever check asked for it (a check of your own too), after a tour of every operation: a response that breaks
// the contract fails the response check it breaks, with the request that got it. A run narrowed to some operations
// (--operation) judges the answers of those, and of requests to no operation (unsupported_method's on their paths);
// response_time (its own file) times them all, last.
import type { Contract } from '../contract/contract.ts';
import {
  contentTypeViolations,
  documentedResponse,
  documentedStatuses,
  headerViolations,
  schemaViolations,
} from '../contract/responses.ts';
import type { Exchange } from '../types.ts';
import type { Check } from './check.ts';
import { responseTime } from './response-time.ts';
import { tourAsFarAsItGoes } from './tour.ts';

export function exchangeLabel(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  const answer = exchange.response ? ` → ${exchange.response.status}` : '';
  return `${exchange.operationId ?? 'no operation'} (${exchange.request.method} ${url.pathname}${url.search})${answer}`;
}

function responseCheck(
  name: string,
  description: string,
  violations: (contract: Contract, exchange: Exchange) => string[],
): Check {
  return {
    name,
    description,
    operations: ['*'],
    async run(ctx) {
      // A tour that cannot go on still leaves its answers to be checked.
      const stopped = await tourAsFarAsItGoes(ctx);
      if (stopped) ctx.fail(`the tour of every operation stopped: ${stopped.message}`, stopped.exchange);
      const judged = ctx.exchanges.filter((e) => e.operationId === undefined || ctx.selected(e.operationId));
      for (const exchange of judged) {
        for (const violation of violations(ctx.contract, exchange))
          ctx.fail(`${exchangeLabel(exchange)}: ${violation}`, exchange);
      }
      const exercised = new Set(judged.map((e) => e.operationId));
      const missed = ctx.contract.operationIds.filter((id) => ctx.selected(id) && !exercised.has(id));
      if (missed.length) ctx.note(`not exercised in this run: ${missed.join(', ')}`);
      ctx.note(`${judged.length} responses checked`);
    },
  };
}

export const responseChecks: Check[] = [
  responseCheck('not_a_server_error', 'Every request gets an answer, and none is a 5xx.', (_contract, exchange) => {
    if (exchange.error) return [`no response: ${exchange.error}`];
    const status = exchange.response!.status;
    return status >= 500
      ? [
          `a server error (${status}${(exchange.response!.json as { code?: string } | undefined)?.code ? ` ${(exchange.response!.json as { code: string }).code}` : ''})`,
        ]
      : [];
  }),
  responseCheck(
    'status_code_conformance',
    'Every status code is one the contract documents for the operation (or its 404/405 conventions).',
    (contract, exchange) =>
      exchange.response && !documentedResponse(contract, exchange)
        ? [`${exchange.response.status} is not documented (documented: ${documentedStatuses(contract, exchange)})`]
        : [],
  ),
  responseCheck(
    'content_type_conformance',
    'Every Content-Type is one documented for the status (application/json, application/problem+json), and a 204 has no body.',
    contentTypeViolations,
  ),
  responseCheck(
    'response_headers_conformance',
    "Every documented required header is present (X-Request-Id, Location, Retry-After, WWW-Authenticate, Allow, Cache-Control…), every documented header present matches its schema, X-Request-Id equals a problem's request_id, and every answer of an operation the contract deprecates carries Deprecation and Sunset as it dates them.",
    headerViolations,
  ),
  responseCheck(
    'response_schema_conformance',
    "Every body validates against the documented schema (JSON Schema 2020-12), and a problem's type and status match its code and the response.",
    schemaViolations,
  ),
  responseTime,
];
