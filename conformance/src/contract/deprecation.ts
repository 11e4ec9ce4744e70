// What the contract says of a deprecated operation (its Versioning section): since which day, the day of its sunset
// if it has one, and so the Deprecation (RFC 9745) and Sunset (RFC 8594) headers every answer of it carries. Worked
// out here from the contract, not borrowed from the server: the suite is the server's judge, not its twin.
import type { Exchange } from '../types.ts';
import type { Contract } from './contract.ts';
import type { Node } from './document.ts';

export interface Deprecated {
  /** `x-deprecated-at` as the contract writes it (a day, YYYY-MM-DD), when it does. */
  since?: string;
  /** `x-sunset`, when the contract sets one. */
  sunset?: string;
}

/** 00:00:00 UTC of a YYYY-MM-DD day, in milliseconds; undefined for anything else. */
function dayStart(day: unknown): number | undefined {
  const ms = typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/** The operation's deprecation, or undefined when the contract does not deprecate it. */
export function deprecationOf(operation: Node): Deprecated | undefined {
  if (operation.deprecated !== true) return undefined;
  const { 'x-deprecated-at': since, 'x-sunset': sunset } = operation;
  return { ...(typeof since === 'string' ? { since } : {}), ...(typeof sunset === 'string' ? { sunset } : {}) };
}

/** `deprecated since …, sunset …`, for reports. */
export function deprecationText(deprecated: Deprecated): string {
  const since = deprecated.since ? ` since ${deprecated.since}` : '';
  return `deprecated${since}${deprecated.sunset ? `, sunset ${deprecated.sunset}` : ''}`;
}

/**
 * How an answer of a deprecated operation breaks the contract's deprecation convention: no Deprecation, or not the
 * Structured Field Date of its day (`@` and the Unix time; any such date when the contract gives no day); with a
 * sunset, no Sunset or another instant. The 408 and 431 a server gives a request that is not well-formed HTTP are
 * exempt (they reach no operation), as the convention says.
 */
export function deprecationViolations(contract: Contract, exchange: Exchange): string[] {
  const received = exchange.response;
  if (!received || !exchange.operationId || received.status === 408 || received.status === 431) return [];
  const deprecated = deprecationOf(contract.byId(exchange.operationId).operation);
  if (!deprecated) return [];
  const problems: string[] = [];
  const why = `the contract deprecates ${exchange.operationId}${deprecated.since ? ` since ${deprecated.since}` : ''}`;
  const since = dayStart(deprecated.since);
  const expected = since === undefined ? undefined : `@${since / 1000}`;
  const value = received.headers.deprecation;
  if (value === undefined)
    problems.push(`${why}, but Deprecation is missing (RFC 9745${expected ? `: expected ${expected}` : ''})`);
  else if (expected ? value.trim() !== expected : !/^@-?\d+$/.test(value.trim()))
    problems.push(
      `Deprecation is "${value}"; ${why}: expected ${expected ?? 'a date, @ and the Unix time'} (RFC 9745)`,
    );
  const sunset = dayStart(deprecated.sunset);
  if (sunset !== undefined) {
    const date = new Date(sunset).toUTCString();
    const sent = received.headers.sunset;
    if (sent === undefined)
      problems.push(
        `the contract sets ${exchange.operationId}'s sunset on ${deprecated.sunset}, but Sunset is missing (RFC 8594: expected ${date})`,
      );
    else if (Date.parse(sent) !== sunset)
      problems.push(
        `Sunset is "${sent}"; the contract sets ${exchange.operationId}'s sunset on ${deprecated.sunset}: expected ${date} (RFC 8594)`,
      );
  }
  return problems;
}
