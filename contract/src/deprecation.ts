// The contract's deprecations as response headers (issue 29): an operation marked `deprecated: true` says since
// when in `x-deprecated-at` and may say when it goes in `x-sunset` (dates, YYYY-MM-DD, read as 00:00:00 UTC), and
// every answer of it carries `Deprecation` (RFC 9745: a Structured Field Date, `@` and seconds since the epoch) and
// then `Sunset` (RFC 8594: an HTTP-date). Worked out once, when the contract is read; a contract that breaks these
// rules (which `npm run lint` refuses first) stops the start. The server and the sandbox send them.

/** The members of an operation object this reads. */
export interface DeprecationFields {
  operationId?: unknown;
  deprecated?: unknown;
  'x-deprecated-at'?: unknown;
  'x-sunset'?: unknown;
}

/** The paths of an OpenAPI document, as far as this reads them. */
export type DeprecationPaths = Record<string, Record<string, unknown>>;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A contract whose deprecation members cannot be sent as headers, with the operation and the member named. */
export class DeprecationError extends Error {
  override name = 'DeprecationError';
}

/** 00:00:00 UTC of a `YYYY-MM-DD` date; throws on anything else (2026-02-30 included). */
function dayStart(value: unknown, where: string): Date {
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw new DeprecationError(`${where}: expected a date, YYYY-MM-DD; got ${JSON.stringify(value)}`);
  return date;
}

/**
 * The headers every answer of `operation` carries, or undefined when it is not deprecated. RFC 9745 has no
 * `Deprecation` without a date, so a deprecated operation must give one; a sunset before it is refused (RFC 9745
 * §4: "MUST NOT be earlier").
 */
export function deprecationNotice(operation: DeprecationFields, name: string): Record<string, string> | undefined {
  const { deprecated, 'x-deprecated-at': at, 'x-sunset': sunset } = operation;
  if (deprecated !== true) {
    if (at !== undefined || sunset !== undefined)
      throw new DeprecationError(`${name}: x-deprecated-at and x-sunset belong to an operation with deprecated: true`);
    return undefined;
  }
  if (at === undefined)
    throw new DeprecationError(`${name}: deprecated: true needs x-deprecated-at (RFC 9745's Deprecation is a date)`);
  const since = dayStart(at, `${name} x-deprecated-at`);
  const headers: Record<string, string> = { Deprecation: `@${since.getTime() / 1000}` };
  if (sunset !== undefined) {
    const end = dayStart(sunset, `${name} x-sunset`);
    if (end < since) throw new DeprecationError(`${name}: x-sunset ${sunset} is before x-deprecated-at ${at}`);
    headers.Sunset = end.toUTCString();
  }
  return headers;
}

/** operationId → the headers of its answers, for each deprecated operation of the document's paths. */
export function deprecationHeaders(document: { paths: DeprecationPaths }): Map<string, Record<string, string>> {
  const notices = new Map<string, Record<string, string>>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = item[method] as DeprecationFields | undefined;
      if (!operation) continue;
      const id = typeof operation.operationId === 'string' ? operation.operationId : `${method.toUpperCase()} ${path}`;
      const headers = deprecationNotice(operation, id);
      if (headers) notices.set(id, headers);
    }
  }
  return notices;
}
