// An exchange as text for reports: the request (its secrets recorded hidden: given-headers.ts) and the response,
// bodies cut short, what the deployment sent made printable (printable.ts).
import type { Exchange } from '../types.ts';
import { printable } from './printable.ts';

const shown = [
  'content-type',
  'location',
  'x-request-id',
  'www-authenticate',
  'allow',
  'retry-after',
  'preference-applied',
  'cache-control',
  'date',
];

/** Text the deployment sent (or that holds what it sent), cut short and made printable. */
function cut(text: string, max: number): string {
  return printable(text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);
}

/** Lines describing the exchange (without indentation). */
export function exchangeLines(exchange: Exchange, maxBody = 800): string[] {
  const { request, response } = exchange;
  const lines = [`→ ${request.method} ${printable(request.url)} (sent by ${exchange.check})`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept') continue;
    lines.push(`  ${name}: ${printable(value)}`);
  }
  if (request.body !== undefined) lines.push(`  ${cut(request.body, maxBody)}`);
  if (!response) return [...lines, `← no response: ${printable(exchange.error ?? 'unknown error')}`];
  lines.push(`← ${response.status} (${response.ms} ms)`);
  for (const name of shown)
    if (response.headers[name] !== undefined) lines.push(`  ${name}: ${printable(response.headers[name])}`);
  if (response.text) lines.push(`  ${cut(response.text, maxBody)}`);
  return lines;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
