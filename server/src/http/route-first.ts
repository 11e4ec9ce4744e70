// Routing comes first: a path without an operation answers 404 and a method the path does not document
// answers 405 with `Allow`, before authentication and before any body is read, as the contract's
// conventions say. The contract's path templates decide, so nothing here can drift from it. Once a request is
// routed its operation is known, so the operation's deprecation headers go on here: every answer it gives from
// then on carries them, problems (401, 404, 413, 429, 503…) included; and its operationId is left in
// res.locals.operation, for the request's metrics (request-metrics.ts).
import type { NextFunction, Request, Response } from 'express';
import type { ContractDocument } from '../core/contract.ts';
import { ApiError } from '../core/api-error.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The contract's operation the request was routed to: its path template and operationId. */
    operation?: { readonly path: string; readonly id: string | undefined };
  }
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `notices`: operationId → the headers each answer of that operation carries (deprecation.ts). */
export function routeFirst(paths: ContractDocument['paths'], notices: ReadonlyMap<string, Record<string, string>>) {
  const routes = Object.entries(paths).map(([template, item]) => ({
    template,
    // {param} matches one segment; the validator checks its shape afterwards.
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    allow: methods.filter((m) => m in item).map((m) => m.toUpperCase()),
    // Made once: what each request routed here is told (req.operation).
    operations: new Map(
      methods.map((m) => {
        const id = (item[m] as { operationId?: string } | undefined)?.operationId;
        return [m.toUpperCase(), Object.freeze({ path: template, id })] as const;
      }),
    ),
    headers: new Map(
      methods.flatMap((m) => {
        const found = notices.get((item[m] as { operationId?: string } | undefined)?.operationId ?? '');
        return found ? [[m.toUpperCase(), found] as const] : [];
      }),
    ),
  }));
  return (req: Request, res: Response, next: NextFunction) => {
    // A literal path wins over a template (GET /job, not /job/{job_id}), as in the validator.
    const route = routes.find((r) => r.template === req.path) ?? routes.find((r) => r.pattern.test(req.path));
    if (!route) return next(new ApiError('not_found', `No operation at ${req.path}; see GET /openapi.yaml.`));
    if (!route.allow.includes(req.method)) {
      const allow = route.allow.join(', ');
      return next(
        new ApiError('method_not_allowed', `${req.method} is not supported on ${req.path}; use ${allow}.`, {
          headers: { Allow: allow },
        }),
      );
    }
    req.operation = route.operations.get(req.method)!;
    const headers = route.headers.get(req.method);
    if (headers) res.set(headers);
    next();
  };
}
