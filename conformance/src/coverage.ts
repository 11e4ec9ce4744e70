// What the run covered, from every exchange it recorded: each operation of the contract with the requests
// sent to it, the documented statuses it answered and those no request provoked, the statuses it answered that
// the contract does not document for it, and whether the contract deprecates it.
import type { Contract } from './contract/contract.ts';
import { deprecationOf } from './contract/deprecation.ts';
import type { Coverage, Exchange, OperationCoverage } from './types.ts';

export function coverage(contract: Contract, exchanges: readonly Exchange[]): Coverage {
  const elsewhere = { requests: 0, statuses: new Set<number>() };
  const byOperation = new Map<string, { requests: number; statuses: Set<number> }>();
  for (const exchange of exchanges) {
    const status = exchange.response?.status;
    if (!exchange.operationId) {
      elsewhere.requests++;
      if (status !== undefined) elsewhere.statuses.add(status);
      continue;
    }
    const entry = byOperation.get(exchange.operationId) ?? { requests: 0, statuses: new Set<number>() };
    entry.requests++;
    if (status !== undefined) entry.statuses.add(status);
    byOperation.set(exchange.operationId, entry);
  }
  const ascending = (a: number, b: number) => a - b;
  const operations = contract.operations.map((op) => {
    const operationId = op.operation.operationId as string;
    const documented = Object.keys(op.operation.responses ?? {})
      .filter((s) => /^\d{3}$/.test(s))
      .map(Number)
      .sort(ascending);
    const { requests, statuses } = byOperation.get(operationId) ?? { requests: 0, statuses: new Set<number>() };
    const received = [...statuses].sort(ascending);
    const deprecated = deprecationOf(op.operation);
    return {
      operationId,
      label: op.label,
      requests,
      documented,
      seen: received.filter((s) => documented.includes(s)),
      undocumented: received.filter((s) => !documented.includes(s)),
      ...(deprecated ? { deprecated } : {}),
    };
  });
  return { operations, elsewhere: { requests: elsewhere.requests, statuses: [...elsewhere.statuses].sort(ascending) } };
}

/**
 * The deprecated operations the run sent requests to, or undefined when the contract deprecates none (reports then
 * say nothing of deprecation).
 */
export function deprecatedUsed(coverage: Coverage): OperationCoverage[] | undefined {
  const deprecated = coverage.operations.filter((op) => op.deprecated);
  return deprecated.length ? deprecated.filter((op) => op.requests > 0) : undefined;
}
