// What the validation proxy asks of the contract: the operation a request reaches, and whether a request and a
// response keep it. The checks are Prism's own (`validateInput`, `validateOutput`, those `prism proxy` runs) over
// the operations Prism reads from openapi.yaml; a body left unread (too large, compressed, not JSON) is left out
// of the check rather than reported as missing (its media type is still checked).
import prismHttp from '@stoplight/prism-http';
import { validateInput, validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import { contractPath } from '@jes/contract/node';
import { allowedMethods } from './conventions.ts';
import { parameterProblems } from './parameters.ts';
import type { Operation } from './mock.ts';
import type { Violation } from './violations.ts';

/** A request as the proxy saw it: header names in lower case, the body parsed when it was read. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The headers as they came, names and values alternating (node's rawHeaders). */
  rawHeaders: string[];
  /** Undefined when the body was not read (none, too large, or not JSON): then it is not checked. */
  body?: unknown;
}

export interface SeenResponse {
  status: number;
  headers: Record<string, string>;
  /** Undefined when the body was not read: then only the status, the media type and the headers are checked. */
  body?: unknown;
}

/** How many of a path's segments are parameters. */
const templated = (path: string) => path.split('/').filter((segment) => segment.startsWith('{')).length;

/** Prism's diagnostics of one check, errors only (its warnings: a non-2xx status the operation does not list). */
function errorsOf(result: { _tag: 'Left'; left: readonly Violation[] } | { _tag: 'Right' }): Violation[] {
  return result._tag === 'Left' ? result.left.filter((v) => (v.severity ?? 0) === 0) : [];
}

const query = (params: URLSearchParams) => {
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    result[key] = values.length === 1 ? values[0]! : values;
  }
  return result;
};

export async function createContractCheck(path: string = contractPath) {
  const operations = await prismHttp.getHttpOperationsFromSpec(path);
  return {
    operations,
    /** The operation `method path` reaches: a concrete path (/problem/qubo) before a templated one, as the server does. */
    operationAt(method: string, path: string): Operation | undefined {
      return operations
        .filter((op) => op.method === method.toLowerCase() && allowedMethods([op], path).length)
        .sort((a, b) => templated(a.path) - templated(b.path))[0];
    },
    request(operation: Operation, seen: SeenRequest): Violation[] {
      const element = {
        method: seen.method.toLowerCase() as 'get',
        url: { path: seen.path, query: query(seen.query) },
        headers: seen.headers,
        body: seen.body,
      };
      // What Prism lets through and the reference server refuses (parameters.ts), then Prism's own check.
      const found: Violation[] = parameterProblems(operation, seen.path, seen.query, seen.rawHeaders).map((p) => ({
        path: p.pointer
          .split('/')
          .slice(1)
          .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~')),
        message: p.detail,
      }));
      try {
        const judged = errorsOf(validateInput({ resource: operation, element }));
        // Prism checks no body it is not given, but says a required one is missing (its one diagnostic without a path).
        found.push(
          ...(seen.body === undefined ? judged.filter((v) => v.path !== undefined || v.code !== 'required') : judged),
        );
      } catch (error) {
        // Prism throws on a path segment that does not decode, reported above.
        if (!found.length) found.push({ message: `Prism could not check the request: ${(error as Error).message}` });
      }
      return found;
    },
    response(operation: Operation, seen: SeenResponse): Violation[] {
      const element = { statusCode: seen.status, headers: seen.headers, body: seen.body };
      const found = errorsOf(validateOutput({ resource: operation, element }));
      return seen.body === undefined ? found.filter((v) => v.path?.[0] !== 'body') : found;
    },
  };
}

export type ContractCheck = Awaited<ReturnType<typeof createContractCheck>>;
