// The conventions every operation keeps: naming and descriptions, bearer security, the RFC 9457 error model,
// the headers every response carries, and the servers.
import { deref, type Node, operations, response } from '../openapi-document.ts';
import { type Check, schema } from './support.ts';

export const operationHygiene: Check = {
  name: 'every operation has a verb-phrase operationId, summary, description, tag, 4xx and 500 response',
  run(doc) {
    const violations: string[] = [];
    const tags = new Set((doc.tags ?? []).map((t: Node) => t.name));
    const ids = new Set<string>();
    for (const op of operations(doc)) {
      const { operationId, summary, description } = op.operation;
      if (!/^(login|list|get|start|cancel|upload|delete|stream|set|rotate)([A-Z][a-z]+)*$/.test(operationId ?? ''))
        violations.push(`${op.label}: operationId "${operationId}" is not a verb phrase`);
      if (ids.has(operationId)) violations.push(`${op.label}: operationId ${operationId} is not unique`);
      ids.add(operationId);
      if (!summary) violations.push(`${op.label}: no summary`);
      if (!description) violations.push(`${op.label}: no description`);
      if (!(op.operation.tags ?? []).length || !(op.operation.tags ?? []).every((t: string) => tags.has(t)))
        violations.push(`${op.label}: tags must be declared`);
      const statuses = Object.keys(op.operation.responses ?? {});
      if (!statuses.some((s) => s.startsWith('4'))) violations.push(`${op.label}: no 4xx response`);
      if (!statuses.includes('500')) violations.push(`${op.label}: no 500 response`);
      for (const p of op.parameters)
        if (!p.description) violations.push(`${op.label}: parameter ${p.name} has no description`);
    }
    return violations;
  },
};

const publicOperations = ['login', 'getHealth'];

export const security: Check = {
  name: 'a bearer JWT guards every operation but login and getHealth, and 401 carries WWW-Authenticate',
  run(doc) {
    const violations: string[] = [];
    const schemes = Object.entries<Node>(doc.components?.securitySchemes ?? {}).filter(
      ([, s]) => s.type === 'http' && s.scheme === 'bearer' && s.bearerFormat === 'JWT',
    );
    const name = schemes[0]?.[0];
    if (!name) return ['a security scheme of type http, scheme bearer, bearerFormat JWT is needed'];
    if (!(doc.security ?? []).some((r: Node) => name in r))
      violations.push(`the document's security must require ${name}`);
    for (const op of operations(doc)) {
      const id = op.operation.operationId;
      const own = op.operation.security;
      if (publicOperations.includes(id)) {
        if (!Array.isArray(own) || own.length !== 0) violations.push(`${id} must be public (security: [])`);
        continue;
      }
      if (own !== undefined && !own.some((r: Node) => name in r)) violations.push(`${id} must require ${name}`);
      const unauthorized = response(doc, op, '401');
      if (!deref(doc, unauthorized?.headers?.['WWW-Authenticate'])?.required)
        violations.push(`${id}: 401 must carry WWW-Authenticate`);
      const codes = problemCodes(unauthorized);
      if (!codes?.includes('missing_token') || !codes.includes('invalid_token'))
        violations.push(`${id}: 401 must list missing_token and invalid_token`);
    }
    return violations;
  },
};

/** The `code` values an error response lists (allOf [Problem, {properties: {code: {enum}}}]). */
function problemCodes(res: Node | undefined): string[] | undefined {
  const s = res?.content?.['application/problem+json']?.schema;
  return s?.allOf?.map((part: Node) => part.properties?.code?.enum).find(Array.isArray);
}

export const errorModel: Check = {
  name: 'every 4xx/5xx response is application/problem+json referencing Problem, with its codes listed',
  run(doc) {
    const violations: string[] = [];
    const problem = deref(doc, schema('Problem'));
    for (const member of ['type', 'title', 'status', 'detail', 'code']) {
      if (!problem?.required?.includes(member)) violations.push(`Problem must require ${member}`);
    }
    for (const member of ['instance', 'request_id', 'errors', 'max_bytes']) {
      if (!problem?.properties?.[member]) violations.push(`Problem must define ${member}`);
    }
    const catalogue = problem?.description ?? '';
    for (const op of operations(doc)) {
      for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        const res = deref(doc, raw);
        const where = `${op.label} ${status}`;
        const types = Object.keys(res?.content ?? {});
        if (types.join() !== 'application/problem+json')
          violations.push(`${where}: content must be application/problem+json only, is ${types.join() || 'none'}`);
        const s = res?.content?.['application/problem+json']?.schema;
        const refsProblem =
          s?.$ref === '#/components/schemas/Problem' || s?.allOf?.[0]?.$ref === '#/components/schemas/Problem';
        if (!refsProblem) violations.push(`${where}: schema must reference Problem`);
        const codes = problemCodes(res);
        if (!codes?.length) violations.push(`${where}: must list its codes`);
        for (const code of codes ?? [])
          if (!catalogue.includes(`\`${code}\``))
            violations.push(`${where}: code ${code} is not in the Problem catalogue`);
        if (!deref(doc, res?.headers?.['X-Request-Id'])?.required) violations.push(`${where}: must carry X-Request-Id`);
        if (status === '429' && !res?.headers?.['Retry-After']) violations.push(`${where}: must carry Retry-After`);
        // RFC 9110: every 401 carries a challenge, login's included.
        if (status === '401' && !deref(doc, res?.headers?.['WWW-Authenticate'])?.required)
          violations.push(`${where}: must carry WWW-Authenticate`);
      }
    }
    return violations;
  },
};

export const responseHeaders: Check = {
  name: 'every response carries X-Request-Id, and successful secured ones announce rate limits',
  run(doc) {
    const violations: string[] = [];
    for (const op of operations(doc)) {
      for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
        const headers = deref(doc, raw)?.headers ?? {};
        if (!headers['X-Request-Id']) violations.push(`${op.label} ${status}: no X-Request-Id`);
        const limited = status.startsWith('2') && op.operation.operationId !== 'getHealth';
        if (limited && (!headers.RateLimit || !headers['RateLimit-Policy']))
          violations.push(`${op.label} ${status}: no RateLimit / RateLimit-Policy`);
      }
    }
    return violations;
  },
};

export const servers: Check = {
  name: 'servers list production and sandbox base URLs with defaults',
  run(doc) {
    const violations: string[] = [];
    const list: Node[] = doc.servers ?? [];
    for (const kind of ['Production', 'Sandbox']) {
      if (!list.some((s) => (s.description ?? '').startsWith(kind))) violations.push(`no ${kind} server`);
    }
    for (const s of list) {
      for (const [name, v] of Object.entries<Node>(s.variables ?? {})) {
        if (typeof v.default !== 'string' || !v.default)
          violations.push(`server ${s.url}: variable ${name} needs a default`);
      }
    }
    return violations;
  },
};

/** The schema a `$response.body#/a/b` pointer lands on, following properties (and `$ref`s) from `schema`. */
function schemaAt(doc: Node, schema: Node | undefined, tokens: string[]): Node | undefined {
  let here = deref(doc, schema);
  for (const token of tokens) {
    here = deref(doc, here?.properties?.[token]);
    if (!here) return undefined;
  }
  return here;
}

export const links: Check = {
  name: "every link names an operation, gives its required path parameters, and reads what its source has (a $request.path of a parameter the path lacks stopped Schemathesis' stateful run)",
  run(doc) {
    const violations: string[] = [];
    const all = operations(doc);
    for (const op of all) {
      for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
        const response = deref(doc, raw) as Node;
        for (const [name, rawLink] of Object.entries<Node>(response.links ?? {})) {
          const link = deref(doc, rawLink) as Node;
          const where = `${op.label} ${status} link ${name}`;
          const target = all.find((o) => o.operation.operationId === link.operationId);
          if (!target) {
            violations.push(`${where}: operationId ${link.operationId} names no operation`);
            continue;
          }
          const given = Object.keys(link.parameters ?? {}).map((key) => key.replace(/^(path|query|header)\./, ''));
          for (const key of given)
            if (!target.parameters.some((p) => p.name === key))
              violations.push(`${where}: ${target.label} has no parameter ${key}`);
          for (const p of target.parameters)
            if (p.in === 'path' && !given.includes(p.name))
              violations.push(`${where}: path parameter ${p.name} of ${target.label} is not given`);
          for (const expression of Object.values<unknown>(link.parameters ?? {})) {
            const text = String(expression);
            const fromPath = /^\$request\.(path|query|header)\.(.+)$/.exec(text);
            const fromBody = /^\$response\.body#\/(.*)$/.exec(text);
            if (fromPath) {
              if (!op.parameters.some((p) => p.in === fromPath[1] && p.name === fromPath[2]))
                violations.push(`${where}: ${text}: ${op.label} has no ${fromPath[1]} parameter ${fromPath[2]}`);
            } else if (fromBody) {
              const body = response.content?.['application/json']?.schema;
              if (!schemaAt(doc, body, fromBody[1]!.split('/')))
                violations.push(`${where}: ${text} is not in ${op.label}'s ${status} body`);
            } else violations.push(`${where}: ${text} is not an expression this check knows`);
          }
        }
      }
    }
    return violations;
  },
};
