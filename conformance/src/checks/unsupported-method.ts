// unsupported_method: a method a path does not document answers 405 `method_not_allowed` with an `Allow`
// header naming exactly the documented methods, and a path without operations answers 404 `not_found`.
import type { Check } from './check.ts';
import { fillPath, pathValues } from './probes.ts';

const tried = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];

export const unsupportedMethod: Check = {
  name: 'unsupported_method',
  description: 'Each method a path does not document (of GET, PUT, POST, DELETE, PATCH) answers 405 method_not_allowed with Allow listing the documented ones; a path without operations answers 404 not_found.',
  operations: ['*'],
  async run(ctx) {
    for (const [template, item] of Object.entries<Record<string, unknown>>(ctx.contract.doc.paths)) {
      const documented = tried.filter((m) => item[m.toLowerCase()]);
      const path = fillPath(template, pathValues(ctx));
      for (const method of tried.filter((m) => !documented.includes(m))) {
        const reply = await ctx.send({ method, path, ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }) });
        if (!ctx.expectStatus(reply, 405, `${method} ${template}`, 'method_not_allowed')) continue;
        const allow = (reply.headers.allow ?? '').split(',').map((m) => m.trim().toUpperCase()).filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS');
        ctx.expect(allow.length === documented.length && documented.every((m) => allow.includes(m)), `${method} ${template}: Allow is "${reply.headers.allow ?? ''}", expected ${documented.join(', ')}`, reply.exchange);
      }
    }
    const nowhere = await ctx.send({ method: 'GET', path: `/${ctx.unique('nowhere')}` });
    ctx.expectStatus(nowhere, 404, 'a path without operations', 'not_found');
  },
};
