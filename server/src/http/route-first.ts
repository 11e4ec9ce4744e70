// Routing comes first: a path without an operation answers 404 and a method the path does not document
// answers 405 with `Allow`, before authentication and before any body is read, as the contract's
// conventions say. The contract's path templates decide, so nothing here can drift from it.
import type { NextFunction, Request, Response } from 'express';
import type { ContractDocument } from '../contract.ts';
import { HttpProblem } from '../problems.ts';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function routeFirst(paths: ContractDocument['paths']) {
  const routes = Object.entries(paths).map(([template, item]) => ({
    template,
    // {param} matches one segment; the validator checks its shape afterwards.
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    allow: methods.filter((m) => m in item).map((m) => m.toUpperCase()),
  }));
  return (req: Request, _res: Response, next: NextFunction) => {
    // A literal path wins over a template (GET /job, not /job/{job_id}), as in the validator.
    const route = routes.find((r) => r.template === req.path) ?? routes.find((r) => r.pattern.test(req.path));
    if (!route) return next(new HttpProblem('not_found', `No operation at ${req.path}; see GET /openapi.yaml.`));
    if (!route.allow.includes(req.method)) {
      const allow = route.allow.join(', ');
      return next(
        new HttpProblem('method_not_allowed', `${req.method} is not supported on ${req.path}; use ${allow}.`, {
          headers: { Allow: allow },
        }),
      );
    }
    next();
  };
}
