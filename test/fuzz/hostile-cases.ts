// Hostile requests: valid bodies with a hostile value or member name somewhere (NUL, lone surrogates, U+0100
// and up, 10,000-deep nesting, 1e400, 2**64, empty strings, duplicate members, bytes that are not UTF-8),
// hostile parameters, Content-Type and Content-Encoding the server cannot read, odd methods, paths and query
// strings, Prefer garbage, bodies whose Content-Length lies, and data files declaring more than they may hold.
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import fc from 'fast-check';
import { type Json, jsonText, pairs, raw } from './bodies.ts';
import { type GenerationContext, jsonHeaders, ref, requestTarget } from './cases.ts';
import * as hostile from './hostile.ts';
import { declaredSizeCase } from './declared-size-cases.ts';
import { multipartCase } from './multipart-cases.ts';
import { graphOf } from '../../conformance/src/maxcut.ts';
import { type CaseSpec, oneParameterCase, operationCase, validJsonBody } from './valid-cases.ts';

type Path = (string | number)[];

function locations(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, i) => locations(item, [...path, i]))];
  if (value && typeof value === 'object')
    return [path, ...Object.entries(value).flatMap(([k, v]) => locations(v, [...path, k]))];
  return [path];
}

/** `value` with what is at `path` replaced by `make(old)` (the root too). */
function replaceAt(value: Json, path: Path, make: (old: unknown) => Json): Json {
  if (!path.length) return make(value);
  const copy: any = structuredClone(value);
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step];
  parent[path.at(-1)!] = make(parent[path.at(-1)!]);
  return copy;
}

/** One hostile change at one place of a valid JSON body. */
function hostileBody(body: Json, pick: number, how: number, value: Json, name: string): { body: Json; what: string } {
  const all = locations(body);
  const path = all[pick % all.length]!;
  const at = `/${path.join('/')}`;
  /** The members of an object in order, changed by `change`; anything else is replaced by the hostile value. */
  const members =
    (change: (entries: [string, Json][]) => [string, Json][]) =>
    (old: unknown): Json =>
      old && typeof old === 'object' && !Array.isArray(old)
        ? pairs(change(Object.entries(old as Record<string, Json>)))
        : value;
  const notJson = raw(hostile.notJsonNumbers[pick % hostile.notJsonNumbers.length]!);
  switch (how % 5) {
    case 0:
      return { body: replaceAt(body, path, () => value), what: `${at} replaced by a hostile value` };
    case 1:
      return {
        body: replaceAt(
          body,
          path,
          members((entries) => [...entries, [name, value]]),
        ),
        what: `a hostile member name at ${at}`,
      };
    case 2:
      return {
        body: replaceAt(
          body,
          path,
          members((entries) => entries.map(([k, v], i) => [i === 0 ? name : k, v])),
        ),
        what: `a member renamed to a hostile name at ${at}`,
      };
    case 3:
      return {
        body: replaceAt(
          body,
          path,
          members((entries) => [...entries, ...entries.slice(0, 1).map(([k]): [string, Json] => [k, value])]),
        ),
        what: `a member repeated at ${at}`,
      };
    default:
      return {
        body: replaceAt(body, path, (old) => (typeof old === 'number' ? notJson : value)),
        what: `${at} as a number JSON does not allow`,
      };
  }
}

type JsonOperation = 'login' | 'startJob';

/** Mostly starts: a login that reaches the password check costs 32 MiB of scrypt (~0.1 s), by design. */
function perOperation<T>(make: (id: JsonOperation) => fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ weight: 1, arbitrary: make('login') }, { weight: 8, arbitrary: make('startJob') });
}

function startTarget(ctx: GenerationContext, id: JsonOperation, query: Record<string, unknown>): string {
  return requestTarget(ctx.contract.byId(id).path, { problem_id: 'maxcut' }, query);
}

/** Valid login and start bodies with one hostile change (values, member names, duplicates, bytes that are not UTF-8). */
function hostileBodyCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  const name = fc.oneof(
    fc.constantFrom(...hostile.hostileStrings),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }),
  );
  const changed = perOperation((id) =>
    fc
      .tuple(validJsonBody(ctx, id), fc.nat(), fc.nat(), fc.constantFrom<Json>(...hostile.hostileJson), name)
      .map(([{ body, query }, pick, how, value, member]) => {
        const result = hostileBody(body, pick, how, value, member);
        return {
          family: `hostile body: ${result.what.replace(/\/\S*/, '…')}`,
          method: 'POST',
          target: startTarget(ctx, id, query),
          headers: jsonHeaders(),
          body: Buffer.from(jsonText(result.body)),
        };
      }),
  );
  const bytes = perOperation((id) =>
    fc.tuple(fc.constantFrom(...hostile.invalidUtf8), fc.boolean()).map(([invalid, inName]) => {
      const [before, after] =
        id === 'login'
          ? ['{"username":"', '","password":"p"}']
          : inName
            ? ['{"num_nodes":1,"adj_matrix":[[0]],"', '":1}']
            : ['{"num_nodes":1,"adj_matrix":[[0]],"x":"', '"}'];
      const sent = Buffer.concat([Buffer.from(before), invalid, Buffer.from(after)]);
      return {
        family: 'hostile body: bytes that are not UTF-8',
        method: 'POST',
        target: startTarget(ctx, id, {}),
        headers: jsonHeaders(),
        body: sent,
      };
    }),
  );
  const texts = [
    '',
    ' ',
    'null',
    '"text"',
    '[]',
    '{}',
    '1e400',
    '18446744073709551616',
    '\u0000',
    '{"a":1}x',
    ...hostile.deepValues.map(jsonText),
    ...hostile.notJsonNumbers,
  ];
  const whole = perOperation((id) =>
    fc.constantFrom(...texts).map((text) => ({
      family: 'hostile body: the whole body',
      method: 'POST',
      target: startTarget(ctx, id, {}),
      headers: jsonHeaders(),
      body: Buffer.from(text),
    })),
  );
  return fc.oneof({ weight: 6, arbitrary: changed }, { weight: 1, arbitrary: bytes }, { weight: 1, arbitrary: whole });
}

function compress(encoding: string, body: Buffer): Buffer {
  if (encoding === 'gzip') return gzipSync(body);
  if (encoding === 'deflate') return deflateSync(body);
  if (encoding === 'br') return brotliCompressSync(body);
  if (encoding === 'zstd') return zstdCompressSync(body);
  return body;
}

/** Valid JSON bodies under hostile headers: Content-Type and charsets, Content-Encoding (corrupt or real), a BOM, odd X-Request-Id, long and many headers, odd and doubled Idempotency-Keys. */
function hostileHeaderCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  const base = perOperation((id) =>
    validJsonBody(ctx, id).map(({ body, query }) => ({ text: jsonText(body), target: startTarget(ctx, id, query) })),
  );
  return fc
    .tuple(base, fc.nat(9), fc.nat(), fc.constantFrom(...hostile.hostileStrings))
    .map(([{ text, target }, kind, pick, odd]): CaseSpec => {
      const body = Buffer.from(text);
      const post = (family: string, headers: [string, string][], sent: Buffer = body): CaseSpec => ({
        family: `headers: ${family}`,
        method: 'POST',
        target,
        headers,
        body: sent,
      });
      switch (kind) {
        case 0: {
          const type = hostile.contentTypes[pick % hostile.contentTypes.length];
          return post(
            `Content-Type ${type === undefined ? 'missing' : JSON.stringify(type)}`,
            type === undefined ? [] : [['Content-Type', type]],
          );
        }
        case 1: {
          const encoding = hostile.contentEncodings[pick % hostile.contentEncodings.length]!;
          const corrupt = pick % 2 === 0;
          const sent = corrupt
            ? Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0xff]), body.subarray(0, 20)])
            : compress(encoding, body);
          return post(
            `Content-Encoding ${encoding}${corrupt ? ' with corrupt data' : ''}`,
            [...jsonHeaders(), ['Content-Encoding', encoding]],
            sent,
          );
        }
        case 2:
          return post('a UTF-8 byte-order mark', jsonHeaders(), Buffer.concat([hostile.utf8Bom, body]));
        case 3: {
          const [charset, encoding] = (
            [
              ['utf-16', 'utf16le'],
              ['utf-16le', 'utf16le'],
              ['latin1', 'latin1'],
              ['utf-8', 'utf8'],
            ] as const
          )[pick % 4]!;
          return post(
            `a body in ${charset}`,
            [['Content-Type', `application/json; charset=${charset}`]],
            Buffer.from(text, encoding),
          );
        }
        case 4:
          return post('a hostile X-Request-Id', [
            ...jsonHeaders(),
            [
              'X-Request-Id',
              [odd, '', ' ', 'x'.repeat(129), 'a'.repeat(128), 'id with spaces', '../../x', 'Ā'][pick % 8]!,
            ],
          ]);
        case 5:
          return post('a header of 8,000 characters', [...jsonHeaders(), ['X-Fuzz', 'v'.repeat(8000)]]);
        case 6:
          return post('an odd Accept', [
            ...jsonHeaders(),
            [
              'Accept',
              [
                'text/html',
                'application/xml',
                '*/*;q=0',
                '',
                'application/problem+json;q=0, application/json;q=0',
                'Ā/𝄞',
              ][pick % 6]!,
            ],
          ]);
        case 7:
          return post('90 extra headers', [
            ...jsonHeaders(),
            ...Array.from({ length: 90 }, (_, i): [string, string] => [`X-Fuzz-${i}`, String(i)]),
          ]);
        case 8: {
          // Two keys (Node joined them into one, "dupA, dupB"), an empty one, quoted ones at and past 255.
          const keys = [['dupA', 'dupB'], [''], ['""'], [`"${'k'.repeat(255)}"`], [`"${'k'.repeat(256)}"`]][pick % 5]!;
          return post(`Idempotency-Key ${keys.length > 1 ? 'twice' : JSON.stringify(keys[0]).slice(0, 12)}`, [
            ...jsonHeaders(),
            ...keys.map((key): [string, string] => ['Idempotency-Key', key]),
          ]);
        }
        default:
          return post('Content-Type twice', [
            ['Content-Type', 'application/json'],
            ['Content-Type', 'text/plain'],
          ]);
      }
    });
}

/** Odd methods on the contract's paths and on paths it does not have. */
function methodCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  const known = ctx.contract.operations.map((op) =>
    requestTarget(op.path, { job_id: ref('job'), data_file_identifier: ref('file'), problem_id: 'maxcut' }),
  );
  return fc
    .tuple(
      fc.constantFrom(...hostile.oddMethods),
      fc.oneof(fc.constantFrom(...known), fc.constantFrom(...hostile.oddPaths)),
      fc.boolean(),
    )
    .map(([method, target, withBody]) => ({
      family: 'method and path',
      method,
      target,
      headers: withBody ? jsonHeaders() : [],
      ...(withBody ? { body: Buffer.from('{"num_nodes":1,"adj_matrix":[[0]]}') } : {}),
    }));
}

/** Query strings with empty values, repeated and unknown names, bad escapes, huge numbers, on every operation that reads one. */
function queryCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  const ops = ctx.contract.operations.filter((op) => op.method === 'get' || op.operation.operationId === 'startJob');
  return fc.oneof(
    ...ops.map((op) =>
      fc.tuple(operationCase(ctx, op), fc.constantFrom(...hostile.oddQueries)).map(([spec, query]) => ({
        ...spec,
        family: 'query string',
        target: `${spec.target.split('?')[0]}?${query}`,
        letRun: false,
      })),
    ),
  );
}

/** Prefer garbage, against a job that has ended or does not exist (a real wait may last a minute), and elsewhere. */
function preferCase(): fc.Arbitrary<CaseSpec> {
  const job = fc.constantFrom(ref('finished'), ref('foreign_job'), 'ZZZZZZZZZZZZ');
  return fc
    .tuple(fc.constantFrom(...hostile.preferValues), job, fc.constantFrom('', '/output', '/cancel'))
    .map(([prefer, id, tail]) => ({
      family: 'Prefer',
      method: tail === '/cancel' ? 'POST' : 'GET',
      target: `/job/${id}${tail}`,
      headers: [['Prefer', prefer]],
    }));
}

/** Bodies whose framing lies: a Content-Length shorter or longer than the body, both Content-Length and chunked, broken chunks. */
function framingCase(): fc.Arbitrary<CaseSpec> {
  const body = Buffer.from('{"num_nodes":2,"adj_matrix":[[0,1],[1,0]]}');
  const start = { method: 'POST', target: '/problem/maxcut?solver=exact' };
  const chunked = Buffer.from(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
  return fc.constantFrom<CaseSpec>(
    {
      ...start,
      family: 'framing: Content-Length shorter than the body',
      headers: jsonHeaders(),
      body,
      contentLength: 10,
    },
    {
      ...start,
      family: 'framing: Content-Length longer than the body',
      headers: jsonHeaders(),
      body,
      contentLength: 100,
      endAfterWrite: true,
    },
    {
      ...start,
      family: 'framing: Content-Length and chunked',
      headers: [...jsonHeaders(), ['Transfer-Encoding', 'chunked'], ['Content-Length', '5']],
      body: chunked,
    },
    {
      ...start,
      family: 'framing: chunked',
      headers: [...jsonHeaders(), ['Transfer-Encoding', 'chunked']],
      body: chunked,
      contentLength: null,
    },
    {
      ...start,
      family: 'framing: broken chunks',
      headers: [...jsonHeaders(), ['Transfer-Encoding', 'chunked']],
      body: Buffer.from(`zz\r\n${body}\r\n0\r\n\r\n`),
      contentLength: null,
    },
    { method: 'GET', target: '/problem', family: 'framing: a body on GET', headers: jsonHeaders(), body },
    { method: 'GET', target: '/healthz', family: 'framing: HTTP/1.0', headers: [], version: 'HTTP/1.0' },
    { ...start, family: 'framing: HTTP/1.0 with a body', headers: jsonHeaders(), body, version: 'HTTP/1.0' },
    { method: 'GET', target: '/problem/maxcut', family: 'framing: no Host', headers: [], omitHost: true },
    {
      method: 'GET',
      target: 'http://localhost/problem/maxcut',
      family: 'framing: an absolute-form target',
      headers: [],
    },
    {
      method: 'GET',
      target: `http://localhost/job/${ref('finished')}?x=1`,
      family: 'framing: an absolute-form target',
      headers: [],
    },
    {
      method: 'POST',
      target: `/job/${ref('finished')}/cancel`,
      family: 'framing: a body on cancel',
      headers: [['Content-Type', 'text/plain']],
      body,
    },
  );
}

/** Weights a double holds whose sums do not: the largest doubles of both signs, the smallest, -0. */
const extremeWeight = fc.constantFrom(
  1.7976931348623157e308,
  -1.7976931348623157e308,
  1e308,
  -1e308,
  5e-324,
  -0,
  0,
  9007199254740993,
  0.1,
);

/** Inline graphs of such weights, run to their end by the exact solver: their answers must still be readable. */
function extremeWeightsCase(): fc.Arbitrary<CaseSpec> {
  return fc
    .tuple(fc.integer({ min: 2, max: 5 }), fc.array(extremeWeight, { minLength: 10, maxLength: 10 }))
    .map(([n, weights]) => {
      let k = 0;
      const graph = graphOf(n, () => weights[k++ % weights.length]!);
      return {
        family: 'extreme weights',
        method: 'POST',
        target: '/problem/maxcut?solver=exact&time_limit_seconds=0.2',
        headers: jsonHeaders(),
        body: Buffer.from(JSON.stringify(graph)),
        letRun: true,
      };
    });
}

export function hostileCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  return fc.oneof(
    { weight: 14, arbitrary: hostileBodyCase(ctx) },
    {
      weight: 8,
      arbitrary: oneParameterCase(
        ctx,
        'hostile',
        fc.oneof(
          fc.constantFrom(...hostile.hostileStrings, ...hostile.hostileNumbers),
          fc.string({ unit: 'binary', maxLength: 12 }),
        ),
      ),
    },
    { weight: 10, arbitrary: hostileHeaderCase(ctx) },
    { weight: 10, arbitrary: multipartCase(ctx) },
    { weight: 2, arbitrary: declaredSizeCase() },
    { weight: 6, arbitrary: methodCase(ctx) },
    { weight: 6, arbitrary: queryCase(ctx) },
    { weight: 3, arbitrary: preferCase() },
    { weight: 3, arbitrary: framingCase() },
    { weight: 2, arbitrary: extremeWeightsCase() },
  );
}
