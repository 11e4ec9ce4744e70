// The HTTP side: requests by operation, method and status with their latency, and rate-limit refusals by policy.
import { Counter, Histogram, type Registry } from 'prom-client';
import { ratePolicies } from '../config/config.ts';
import { methodLabel, oneOf } from './labels.ts';

/** The words for requests outside the contract's operations (the contract's operationIds name the rest). */
export const outsideOperations = ['docs', 'app', 'openapi', 'metrics', 'readyz', 'healthz', 'unmatched'] as const;

export interface HttpMetrics {
  /** A request answered (or cut off) after `seconds`: `operation` an operationId or one of outsideOperations. */
  request(operation: string, method: string, status: number, seconds: number): void;
  /** A request refused by a rate-limit policy (429). */
  refused(policy: string): void;
}

export function httpMetrics(registers: Registry[], operationIds: Iterable<string>): HttpMetrics {
  const operation = oneOf([...operationIds, ...outsideOperations]);
  const policy = oneOf(ratePolicies);
  const requests = new Counter({
    name: 'jes_http_requests_total',
    help: 'HTTP requests answered, by operation (the contract operationId), method and status code',
    labelNames: ['operation', 'method', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'jes_http_request_duration_seconds',
    help: 'Time from a request reaching the app to its response ending, by operation and method',
    labelNames: ['operation', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const refusals = new Counter({
    name: 'jes_rate_limit_refusals_total',
    help: 'Requests refused with 429 rate_limited, by rate-limit policy',
    labelNames: ['policy'] as const,
    registers,
  });
  return {
    request(op, method, status, seconds) {
      const labels = { operation: operation(op), method: methodLabel(method) };
      requests.inc({ ...labels, status: String(status) });
      duration.observe(labels, seconds);
    },
    refused: (name) => refusals.inc({ policy: policy(name) }),
  };
}
