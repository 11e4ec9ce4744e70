// Every request counted by operation, method and status, and timed, when it ends (answered, or cut off: then with
// the status set so far, 200 unless an error had set another). The
// operation is the contract's operationId that routing found (route-first.ts), or a fixed word for what lies
// outside the contract; never the path, so a flood of made-up paths adds no series.
import type { NextFunction, Request, Response } from 'express';
import type { HttpMetrics } from '../metrics/http.ts';

/** The word for a request no operation of the contract took. */
function outside(path: string): string {
  if (path === '/metrics') return 'metrics';
  if (path === '/readyz') return 'readyz';
  if (path === '/healthz') return 'healthz';
  if (path === '/openapi.yaml') return 'openapi';
  if (path === '/docs' || path.startsWith('/docs/')) return 'docs';
  if (path === '/app' || path.startsWith('/app/')) return 'app';
  return 'unmatched';
}

export function requestMetrics(metrics: HttpMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.once('close', () => {
      const operation = req.operation?.id;
      metrics.request(
        typeof operation === 'string' ? operation : outside(req.path),
        req.method,
        res.statusCode,
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}
