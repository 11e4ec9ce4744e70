// What the contract says about one response: the documented response for the operation and status (or the
// document-wide conventions: 404 `not_found` for a path without operations, 405 `method_not_allowed` with
// `Allow` for a method the path lacks), and each way a received response can break it (a deprecated operation's
// headers included: deprecation.ts).
import type { Exchange } from '../types.ts';
import type { Contract } from './contract.ts';
import { deprecationViolations } from './deprecation.ts';
import { deref, matchesTemplate, type Node } from './document.ts';

type Received = NonNullable<Exchange['response']>;

function conventionResponse(code: string, extraHeaders: Node = {}): Node {
  return {
    description: `the contract's convention for ${code}`,
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...extraHeaders },
    content: {
      'application/problem+json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { code: { enum: [code] } } }],
        },
      },
    },
  };
}

const allowHeader = { Allow: { required: true, schema: { type: 'string', minLength: 1 } } };

/** The response the contract documents for this exchange's status, refs resolved; undefined if none. */
export function documentedResponse(contract: Contract, exchange: Exchange): Node | undefined {
  const status = exchange.response?.status;
  if (status === undefined) return undefined;
  if (exchange.operationId) return contract.response(exchange.operationId, status);
  const path = new URL(exchange.request.url).pathname;
  const known = contract.operations.some((op) => matchesTemplate(op.path, path));
  if (!known && status === 404) return conventionResponse('not_found');
  if (known && status === 405) return conventionResponse('method_not_allowed', allowHeader);
  return undefined;
}

/** The documented statuses, for messages. */
export function documentedStatuses(contract: Contract, exchange: Exchange): string {
  if (!exchange.operationId) return 'a path without operations answers 404, a method the path lacks 405';
  return Object.keys(contract.byId(exchange.operationId).operation.responses ?? {}).join(', ');
}

const mediaType = (received: Received) => (received.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export function contentTypeViolations(contract: Contract, exchange: Exchange): string[] {
  const documented = documentedResponse(contract, exchange);
  const received = exchange.response;
  if (!documented || !received) return [];
  const types = Object.keys(documented.content ?? {});
  if (!types.length)
    return received.text === ''
      ? []
      : [`a ${received.status} has no body by the contract, but ${received.text.length} characters came`];
  const type = mediaType(received);
  return types.includes(type)
    ? []
    : [
        `Content-Type is "${received.headers['content-type'] ?? '(none)'}"; the contract documents ${types.join(' or ')} for ${received.status}`,
      ];
}

function headerValue(schema: Node, raw: string): unknown {
  return (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(raw.trim())
    ? Number(raw)
    : raw;
}

export function headerViolations(contract: Contract, exchange: Exchange): string[] {
  // A deprecated operation's answers carry its deprecation whatever their status, documented or not.
  const problems = deprecationViolations(contract, exchange);
  const documented = documentedResponse(contract, exchange);
  const received = exchange.response;
  if (!documented || !received) return problems;
  for (const [name, raw] of Object.entries<Node>(documented.headers ?? {})) {
    const header = deref(contract.doc, raw)!;
    const value = received.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`the required header ${name} is missing`);
      continue;
    }
    const schema = deref(contract.doc, header.schema) ?? {};
    for (const error of contract.validate(schema, headerValue(schema, value)))
      problems.push(`header ${name}: "${value}" ${error.replace(/^\/ /, '')}`);
  }
  const requestId = (received.json as { request_id?: unknown } | undefined)?.request_id;
  if (
    requestId !== undefined &&
    received.headers['x-request-id'] !== undefined &&
    requestId !== received.headers['x-request-id']
  ) {
    problems.push(
      `X-Request-Id is "${received.headers['x-request-id']}" but the problem's request_id is "${String(requestId)}"`,
    );
  }
  return problems;
}

export function schemaViolations(contract: Contract, exchange: Exchange): string[] {
  const documented = documentedResponse(contract, exchange);
  const received = exchange.response;
  if (!documented || !received) return [];
  const media = documented.content?.[mediaType(received)] as Node | undefined;
  if (!media?.schema) return [];
  if (received.json === undefined) return [`the body is not JSON: ${received.text.slice(0, 200)}`];
  const problems = contract.validate(media.schema, received.json).map((e) => `body ${e}`);
  if (mediaType(received) === 'application/problem+json' && typeof received.json === 'object' && received.json) {
    const body = received.json as { type?: unknown; code?: unknown; status?: unknown };
    if (body.status !== received.status)
      problems.push(`the problem's status is ${String(body.status)}, the response's ${received.status}`);
    if (typeof body.code === 'string' && body.type !== `urn:jes:problem:${body.code}`)
      problems.push(`the problem's type is "${String(body.type)}", not urn:jes:problem:${body.code}`);
  }
  return problems;
}
