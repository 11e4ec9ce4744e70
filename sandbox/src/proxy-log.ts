// What `jes-sandbox --proxy` prints per request: the request, one line per violation of the contract (in the
// request or in the deployment's response) and per body left unchecked, then the status answered.
//
//   2026-11-22T14:03:07.412Z GET /job/K7Q2M9X4TB1R
//     ✖ response violates the contract: /job must be object
//     → 200 from the deployment
import type { ProxiedExchange } from './proxy.ts';

const clip = (text: string, max = 240) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function proxyLogLines(at: Date, exchange: ProxiedExchange): string {
  const { method, path, status, violations, unchecked, answeredBy } = exchange;
  const lines = [
    ...violations.map((v) => `  ✖ ${v.in} violates the contract: ${v.pointer} ${clip(v.detail, 200)}`),
    ...unchecked.map((why) => `  … ${why}`),
  ];
  const verdict = violations.length || answeredBy ? '' : '✔ keeps the contract ';
  const by = answeredBy ? `by the proxy: ${answeredBy}` : 'from the deployment';
  return [`${at.toISOString()} ${method} ${clip(path, 200)}`, ...lines, `  ${verdict}→ ${status} ${by}`].join('\n');
}
