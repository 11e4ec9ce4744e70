// The server's log: JSON lines for a collector, or, when a person reads it (stdout is a terminal, or
// JES_LOG_FORMAT=pretty), pino-pretty's lines: local time, level, message, then the other fields on one line.
// A request's line reads as the request: `GET /job/… 200 4 ms`, its id after it.
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { logFields } from '../tracing/spans.ts';

/** The fields of the request line (http/request-log.ts), written into its message instead of after it. */
const requestFields = ['method', 'url', 'status', 'ms'];

function message(log: Record<string, unknown>, key: string): string {
  const text =
    log.msg === 'request' && log.method
      ? `${log.method} ${log.url} ${log.status} ${log.ms} ms`
      : String(log[key] ?? '');
  return log.reqId ? `${text} (request ${log.reqId})` : text;
}

export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  stdout: { isTTY?: boolean } = process.stdout,
): Logger {
  const format = config.logFormat === 'auto' ? (stdout.isTTY ? 'pretty' : 'json') : config.logFormat;
  // While a span is active (tracing on), each line names it: trace_id and span_id.
  const options = { level: config.logLevel, mixin: logFields };
  if (format === 'json') return pino(options);
  // Loaded only here (20 ms). In this thread and synchronous, as pino's JSON is: a line logged just before an
  // exit is not lost.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const stream = pretty({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', 'reqId', 'span_id', ...requestFields].join(','),
    messageFormat: message,
    singleLine: true,
  });
  return pino(options, stream);
}
