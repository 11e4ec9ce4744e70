// Prism's mock engine (@stoplight/prism-http, the engine of `prism mock`) over openapi.yaml: it validates a
// request against the contract and answers with the contract's examples (`Prefer: code=…, example=…` choose
// among them). A request it finds at odds with the contract becomes the contract's `400 invalid_request` with
// a pointer per mismatch, and Prism's own account goes in the `sl-violations` header.
import prismCore from '@stoplight/prism-core';
import prismHttp from '@stoplight/prism-http';
import { contractPath } from '@jes/contract/node';
import { type Answer, invalidRequest, type Preferences, problem, problemAnswer } from './conventions.ts';
import { fieldError, requestErrors, type Violation, violationsHeader } from './violations.ts';

export type Operation = Awaited<ReturnType<typeof prismHttp.getHttpOperationsFromSpec>>[number];

export interface MockRequest {
  operation: Operation;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  prefer: Preferences;
}

/** The name of the contract example Prism answered with (it answers an example's value as it is). */
function exampleName(operation: Operation, status: number, body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return examplesByText(operation, status).get(JSON.stringify(body));
}

/** An operation's examples of one status, by their JSON text: serialised once, not on every request. */
const exampleTexts = new WeakMap<Operation, Map<number, Map<string, string>>>();
function examplesByText(operation: Operation, status: number): Map<string, string> {
  let byStatus = exampleTexts.get(operation);
  if (!byStatus) exampleTexts.set(operation, (byStatus = new Map()));
  let texts = byStatus.get(status);
  if (!texts) {
    const examples =
      operation.responses.find((r) => r.code === String(status))?.contents?.flatMap((c) => c.examples ?? []) ?? [];
    texts = new Map();
    // The first of two examples with one value names it, as the search through them did.
    for (const e of examples) {
      const text = 'value' in e ? JSON.stringify(e.value) : undefined;
      if (text !== undefined && !texts.has(text)) texts.set(text, e.key);
    }
    byStatus.set(status, texts);
  }
  return texts;
}

/** The mock of the contract at `path` (by default the one this package carries). */
export async function createMock(path: string = contractPath) {
  const operations = await prismHttp.getHttpOperationsFromSpec(path);
  const logger = prismCore.createLogger('SANDBOX', { level: 'silent' });
  // What `prism mock` sets: validate requests and responses, check security, serve examples (not random data).
  const base = {
    isProxy: false as const,
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    upstreamProxy: undefined,
    mock: { dynamic: false },
  };
  const prism = prismHttp.createInstance(base, { logger });

  async function mock({ operation, path, query, headers, body, prefer }: MockRequest): Promise<Answer> {
    const params: Record<string, string | string[]> = {};
    for (const key of new Set(query.keys())) {
      const values = query.getAll(key);
      params[key] = values.length === 1 ? values[0]! : values;
    }
    const input = { method: operation.method as 'get', url: { path, query: params }, headers, body };
    // Prism answers the lowest success status; an operation that documents 201 (an upload) creates by default.
    const created = prefer.code === undefined && operation.responses.some((r) => r.code === '201') ? { code: 201 } : {};
    // Prism is shown only what it knows of Prefer: the status and the example.
    const chosen = {
      ...(prefer.code === undefined ? {} : { code: prefer.code }),
      ...(prefer.exampleKey === undefined ? {} : { exampleKey: prefer.exampleKey }),
    };
    const result = await prism.request(input, operations, {
      ...base,
      mock: { dynamic: false, ...created, ...chosen },
    })();
    if (result._tag === 'Left') {
      const error = result.left as Error & { detail?: string };
      const detail = `The sandbox cannot answer this request: ${error.message}. ${error.detail ?? ''}`.trim();
      return problemAnswer(problem('invalid_request', detail, path));
    }
    const { output, validations } = result.right;
    const violations: Violation[] = validations.input.filter((v) => v.severity === 0 && v.code !== 401);
    const example = exampleName(operation, output.statusCode, output.body);
    const answer: Answer = {
      status: output.statusCode,
      headers: { ...output.headers },
      body: output.body,
      judged: { violations: violations.map(fieldError), ...(example ? { example } : {}) },
    };
    if (!violations.length) return answer;
    const header = violationsHeader(violations);
    if (output.statusCode !== 400 && output.statusCode !== 422)
      return { ...answer, headers: { ...answer.headers, 'sl-violations': header } };
    const errors = requestErrors(operation.iid, violations, body);
    const refused = invalidRequest(path, errors);
    return { ...refused, headers: { ...refused.headers, 'sl-violations': header }, judged: { violations: errors } };
  }

  return { operations, mock };
}
