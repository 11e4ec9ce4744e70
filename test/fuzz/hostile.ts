// Hostile values, in the spirit of Schemathesis' string and number strategies: NUL, lone surrogates,
// characters from U+0100 up (in values and member names), empty strings, numbers past what a double or a
// 64-bit integer holds, and the header values that break parsers (charsets, encodings, Prefer garbage).
import { nested, raw, type RawJson } from './bodies.ts';

export const hostileStrings: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  'Ā',
  'ĀāĂ𝄞🙂',
  'ｍａｘｃｕｔ',
  'maxcut\u0000',
  '\u202eevil',
  '\ufeff',
  '\u2028\u2029',
  '\u0085\u00a0',
  '\r\nX-Injected: 1',
  '%00',
  '%',
  '../../../etc/passwd',
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '${jndi:ldap://x/a}',
  '__proto__',
  'constructor',
  'null',
  'NaN',
  '-0',
  'x'.repeat(10_000),
  '🙂'.repeat(2_000),
];

/** Number tokens as JSON text: past a double (1e400), past 64 bits (2**64), below the smallest double, odd forms. */
export const hostileNumbers: string[] = [
  '1e400',
  '-1e400',
  '1e-400',
  '18446744073709551616',
  '-18446744073709551617',
  '9007199254740993',
  '123456789012345678901234567890',
  '1.7976931348623157e308',
  '4.9e-324',
  '2147483648',
  '-2147483649',
  '1E+400',
  '0.1e999999',
  '-0',
  '0.0',
  '1e2',
  '1.0',
];

/** Text that is not a JSON number though it looks like one (a body holding it is malformed JSON). */
export const notJsonNumbers = ['NaN', 'Infinity', '-Infinity', '01', '+1', '.5', '1.', '0x10', '1e', '--1'];

/** 10,000-deep nesting, as raw JSON text. */
export const deepValues: RawJson[] = [
  raw(nested('array', 10_000)),
  raw(nested('object', 10_000)),
  raw(nested('mixed', 10_000)),
  raw(nested('array', 10_000, '')),
];

/** Hostile JSON values for any position in a body. */
export const hostileJson = [...hostileStrings, ...hostileNumbers.map(raw), ...deepValues, null, true, [], {}, [[]], 0, -1];

/** Byte sequences that are not UTF-8 (spliced into bodies). */
export const invalidUtf8: Buffer[] = [
  Buffer.from([0xed, 0xa0, 0x80]), // a lone surrogate as WTF-8
  Buffer.from([0xc0, 0x80]), // NUL, over-long
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xe2, 0x82]), // cut short
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), // past U+10FFFF
];

export const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** Content-Type values for a JSON body. */
export const contentTypes: (string | undefined)[] = [
  undefined,
  'application/json; charset=utf-16',
  'application/json; charset=utf-16le',
  'application/json; charset=utf-32',
  'application/json; charset=no-such-charset',
  'application/json; charset="utf-8"',
  'application/json; charset=latin1',
  'application/json;charset=UTF-8;boundary=x',
  'APPLICATION/JSON',
  'application/json; foo',
  'application/jsonx',
  'application/problem+json',
  'application/merge-patch+json',
  'text/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  '',
  ';',
  '*/*',
  'application/json; charset=utf-8, text/plain',
  'application/Ājson',
];

export const contentEncodings = ['gzip', 'deflate', 'br', 'zstd', 'identity', 'gzip, br', 'x-unknown', 'compress', ''];

/** Prefer values for GET /job/{job_id}: only against a job that has ended or does not exist (a wait may last 60 s). */
export const preferValues = [
  'wait=abc',
  'wait=',
  'wait',
  'wait=-1',
  'wait=1.5',
  'wait=1e3',
  'wait=0x10',
  'wait=99999999999999999999999999',
  'wait=18446744073709551616',
  'wait="5"',
  'wait=5, wait=6',
  'respond-async, wait=1',
  'return=minimal',
  'wait=Ā',
  'wait=\u00ff',
  `wait=1, ${'x'.repeat(300)}`,
  ' ',
  ',,,;;;',
  'code=404',
  'code=abc',
  'code=999',
  'code=200, example=no-such-example',
  'example=../../etc/passwd',
  'dynamic=true',
];

export const oddMethods = [
  'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'PURGE',
  'SEARCH', 'REPORT', 'LINK', 'UNLINK', 'QUERY', 'GET', 'POST',
];

/** Paths no operation has, and odd spellings of those that have one. */
export const oddPaths = [
  '/',
  '/jobs',
  '/job/',
  '//job',
  '/job//output',
  '/JOB',
  '/job/K7Q2M9X4TB1R/',
  '/job/K7Q2M9X4TB1R/output/',
  '/job/K7Q2M9X4TB1R/../../healthz',
  '/job/K7Q2M9X4TB1R/%2e%2e/%2e%2e/healthz',
  '/job/%00',
  '/job/%ED%A0%80',
  '/job/%C0%80',
  '/job/%zz',
  '/job/%',
  '/job/K7Q2M9X4TB1R%2Foutput',
  '/problem/maxcut/extra',
  '/problem/',
  '/problem/%6Daxcut',
  '/data_file/',
  '/data_file/D6E02699B78918A5032EC7A872E2DE7800C3A15A',
  '/healthz/',
  '/healthz;x=1',
  '/login/',
  '/openapi.yaml',
  '/docs',
  '/docs/',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/\u00e9',
  `/${'a'.repeat(7000)}`,
  `/job/${'K'.repeat(7000)}`,
  '*',
];

/** Query strings as sent: empty values, repeated and unknown names, bad percent escapes, long ones. */
export const oddQueries = [
  'starting_after=',
  'limit=',
  'limit',
  'limit=1&limit=2',
  'limit=1&limit=1',
  'limit=%31',
  'limit=1e1',
  'limit=0x10',
  'limit=1.0',
  'limit=+5',
  'limit= 5',
  'limit=5%00',
  'limit=18446744073709551616',
  'limit=1e400',
  'limit[]=1',
  'limit[a]=1',
  'status=RUNNING&status=FINISHED',
  'status=',
  'status=running',
  'problem_id=',
  'problem_id=maxcut&problem_id=maxcut',
  'problem_id=%00',
  'problem_id=%ED%A0%80',
  'problem_id=%C4%80',
  'starting_after=K7Q2M9X4TB1R&starting_after=K7Q2M9X4TB1R',
  'unknown=1',
  '=',
  '&&&',
  '=1',
  '%zz=1',
  'limit=%zz',
  'a=%',
  '__proto__=1',
  '%C4%80=1',
  'limit=1&%F0%9F%99%82=%00',
  'constructor[prototype]=1',
  'solver=',
  'solver=exact&solver=exact',
  'solver=exact&solver=local-search&solver=annealing&solver=a&solver=b&solver=c&solver=d&solver=e&solver=f',
  'solver=%00',
  'solver[]=exact',
  'time_limit_seconds=',
  'time_limit_seconds=0',
  'time_limit_seconds=-0',
  'time_limit_seconds=1e400',
  'time_limit_seconds=1e-400',
  'time_limit_seconds=NaN',
  'time_limit_seconds=Infinity',
  'time_limit_seconds=0.5&time_limit_seconds=0.25',
  `limit=1&${'x'.repeat(7000)}=1`,
  `starting_after=${'K'.repeat(7000)}`,
  Array.from({ length: 500 }, (_, i) => `p${i}=${i}`).join('&'),
];
