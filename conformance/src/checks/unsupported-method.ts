// unsupported_method: a method a path does not document answers 405 `method_not_allowed` with an `Allow`
// header naming exactly the documented methods, and a path without operations answers 404 `not_found`;
// both with a token and without one, since routing comes before authentication (a 401 there would tell a
// client to log in for a request no token can make valid). Narrowed to some operations (--operation), the paths of
// those alone, and no path without operations.
import { allowProblem } from '../answer-text.ts';
import type { Auth } from '../http.ts';
import type { Check } from './check.ts';
import { fillPath, pathValues } from './probes.ts';

// The five methods the contract uses, and PROPFIND: a registered method (WebDAV) the contract never uses, so
// a router that only knows the usual five is caught. TRACE and CONNECT would be the classic outsiders, but
// fetch refuses to send them (and proxies often block TRACE); OPTIONS and HEAD are left out because CORS and
// HTTP itself give them answers of their own.
const tried = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'PROPFIND'];
const withBody = new Set(['PUT', 'POST', 'PATCH']);
const asked: { auth: Auth; how: string }[] = [
  { auth: 'user', how: '' },
  { auth: 'none', how: ' without a token' },
];

export const unsupportedMethod: Check = {
  name: 'unsupported_method',
  description:
    'Each method a path does not document (of GET, PUT, POST, DELETE, PATCH, PROPFIND) answers 405 method_not_allowed with Allow listing the documented ones, and a path without operations answers 404 not_found, with a token and without one.',
  operations: ['*'],
  async run(ctx) {
    const narrowed = Boolean(ctx.options.operations?.length);
    for (const [template, item] of Object.entries<Record<string, any>>(ctx.contract.doc.paths)) {
      const documented = tried.filter((m) => item[m.toLowerCase()]);
      if (narrowed && !documented.some((m) => ctx.selected(item[m.toLowerCase()].operationId))) continue;
      const path = fillPath(template, pathValues(ctx));
      for (const method of tried.filter((m) => !documented.includes(m))) {
        for (const { auth, how } of asked) {
          const reply = await ctx.send({ method, path, auth, ...(withBody.has(method) ? { json: {} } : {}) });
          if (!ctx.expectStatus(reply, 405, `${method} ${template}${how}`, 'method_not_allowed')) continue;
          const problem = allowProblem(reply.headers.allow, documented);
          if (problem) ctx.fail(`${method} ${template}${how}: ${problem}`, reply.exchange);
        }
      }
    }
    if (narrowed) return;
    for (const { auth, how } of asked) {
      const nowhere = await ctx.send({ method: 'GET', path: `/${ctx.unique('nowhere')}`, auth });
      ctx.expectStatus(nowhere, 404, `a path without operations${how}`, 'not_found');
    }
  },
};
