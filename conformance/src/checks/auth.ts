// missing_auth and ignored_auth: every secured operation refuses a request without a token (401
// `missing_token`) and every kind of bad token (401 `invalid_token`), with the bearer challenge in
// `WWW-Authenticate`. Without a token, a body is refused unread: a malformed or oversized one still gets 401.
// Narrowed to some operations (--operation), those alone.
import { createHmac, randomBytes } from 'node:crypto';
import { answered, shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { isSecured } from '../contract/document.ts';
import type { Reply, RequestSpec } from '../http.ts';
import { type Check, tokenInstead } from './check.ts';
import { maxBytes, padded } from './limits.ts';
import { exampleBody, fillPath, pathValues, probe, selectedRequest } from './probes.ts';

const secured = (ctx: CheckContext) =>
  ctx.contract.operations.filter(
    (op) => isSecured(ctx.contract.doc, op) && ctx.selected(op.operation.operationId as string),
  );
const securedIds = [
  'listProblems',
  'getMaxCutUseCase',
  'startMaxCutJob',
  'getQuboUseCase',
  'startQuboJob',
  'getProblem',
  'startJob',
  'listJobs',
  'getJob',
  'cancelJob',
  'getJobOutput',
  'getJobInput',
  'listDataFiles',
  'uploadDataFile',
  'getDataFile',
  'deleteDataFile',
  'deleteJob',
  'streamJobEvents',
  'streamEvents',
  'getWebhook',
  'setWebhook',
  'deleteWebhook',
  'rotateWebhookSecret',
  'listWebhookDeliveries',
];

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A JWT over `payload` signed with a key the deployment cannot know. */
function signed(header: object, payload: object): string {
  const body = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${body}.${createHmac('sha256', randomBytes(32)).update(body).digest('base64url')}`;
}

/**
 * Tokens that must be refused, made from the user's real token where that makes them more convincing; the password
 * as Basic credentials when the run has the password (not when it was given a token instead).
 */
function badTokens(
  realToken: string,
  username: string | undefined,
  password: string | undefined,
): { name: string; authorization: string; codes: string[] }[] {
  const [, payloadPart = ''] = realToken.split('.');
  let payload: Record<string, unknown> = {};
  try {
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {}
  const now = Math.floor(Date.now() / 1000);
  const invalid = ['invalid_token'];
  return [
    {
      name: 'a bad signature',
      authorization: `Bearer ${signed({ alg: 'HS256', typ: 'JWT' }, payload)}`,
      codes: invalid,
    },
    {
      name: 'alg: none',
      authorization: `Bearer ${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${payloadPart}.`,
      codes: invalid,
    },
    { name: 'garbage', authorization: 'Bearer not-a-token', codes: invalid },
    {
      name: 'an expired token',
      authorization: `Bearer ${signed({ alg: 'HS256', typ: 'JWT' }, { ...payload, iat: now - 7200, exp: now - 3600 })}`,
      codes: invalid,
    },
    ...(username !== undefined && password !== undefined
      ? [
          {
            name: 'the password as Basic credentials',
            authorization: `Basic ${base64url(`${username}:${password}`).replaceAll('-', '+').replaceAll('_', '/')}`,
            codes: ['invalid_token', 'missing_token'],
          },
        ]
      : []),
  ];
}

/**
 * Bodies a deployment must not read before it knows who sends them: parsing or counting them first lets
 * anyone without an account make it work (and tells them what it would accept). Each is wrong in one way
 * besides the missing token, so a 400 or 413 shows the body was read first. The oversized one goes last
 * (a deployment may close the connection on it) and once.
 */
function unreadBodies(ctx: CheckContext): { what: string; spec: RequestSpec }[] {
  const example = exampleBody(ctx, ctx.contract.byId('startJob'));
  const startJob = {
    method: 'POST',
    path: fillPath(ctx.contract.byId('startJob').path, pathValues(ctx)),
    query: { time_limit_seconds: 1 },
  };
  const json = { 'content-type': 'application/json' };
  const limit = maxBytes(ctx, 'startJob');
  const boundary = ctx.unique('boundary');
  const unfinished = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${ctx.unique('probe.txt')}"\r\nContent-Type: text/plain\r\n\r\n2 1\n1 2 1\n`;
  return [
    {
      what: 'startJob with a malformed JSON body',
      spec: { ...startJob, headers: json, body: JSON.stringify(example).slice(0, 30) },
    },
    {
      what: 'uploadDataFile with a multipart body that never ends',
      spec: {
        method: 'POST',
        path: ctx.contract.byId('uploadDataFile').path,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: unfinished,
      },
    },
    {
      what: `startJob with a body of ${limit} bytes (the inline limit)`,
      spec: { ...startJob, headers: json, body: padded(example, limit), timeoutMs: 120_000 },
    },
  ].filter(({ spec }) => selectedRequest(ctx, spec));
}

function expectRefusal(ctx: CheckContext, reply: Reply, what: string, codes: string[], challenge: RegExp): void {
  if (
    !ctx.expect(
      reply.status === 401 && codes.includes(reply.json?.code),
      `${what}: expected 401 ${codes.join(' or ')}, got ${answered(reply)}`,
      reply.exchange,
    )
  )
    return;
  const header = reply.headers['www-authenticate'];
  ctx.expect(
    challenge.test(header ?? ''),
    `${what}: WWW-Authenticate is ${shown(header)}, expected to match ${challenge}`,
    reply.exchange,
  );
}

export const missingAuth: Check = {
  name: 'missing_auth',
  description:
    'Every secured operation answers a request without Authorization with 401 missing_token and WWW-Authenticate: Bearer realm="jes", before it reads the body: a malformed or oversized (4 MiB) job body and an unfinished multipart upload get 401 too, not 400 or 413.',
  operations: securedIds,
  async run(ctx) {
    for (const op of secured(ctx)) {
      const reply = await ctx.send({ ...probe(ctx, op), auth: 'none' });
      expectRefusal(
        ctx,
        reply,
        `${op.operation.operationId} without a token`,
        ['missing_token'],
        /^Bearer realm="jes"/,
      );
    }
    for (const { what, spec } of unreadBodies(ctx)) {
      const reply = await ctx.send({ ...spec, auth: 'none' });
      expectRefusal(ctx, reply, `${what}, without a token`, ['missing_token'], /^Bearer realm="jes"/);
    }
  },
};

export const ignoredAuth: Check = {
  name: 'ignored_auth',
  description:
    'Every secured operation refuses a bad signature, alg: none, garbage, an expired token and Basic credentials with 401 invalid_token (error="invalid_token" in WWW-Authenticate).',
  operations: securedIds,
  skip: ({ profile }) =>
    profile === 'sandbox'
      ? 'the sandbox accepts any well-formed bearer token by design (it checks that one is present, not what it holds)'
      : undefined,
  async run(ctx) {
    const real = await ctx.http.tokenOf('user', ctx.name);
    if (ctx.options.username === undefined || ctx.options.password === undefined)
      ctx.note(`the password as Basic credentials left out: ${tokenInstead}`);
    for (const token of badTokens(real, ctx.options.username, ctx.options.password)) {
      const challenge = token.codes.includes('missing_token')
        ? /^Bearer realm="jes"/
        : /^Bearer realm="jes".*error="invalid_token"/;
      for (const op of secured(ctx)) {
        const reply = await ctx.send({ ...probe(ctx, op), auth: { authorization: token.authorization } });
        expectRefusal(ctx, reply, `${op.operation.operationId} with ${token.name}`, token.codes, challenge);
      }
    }
  },
};
