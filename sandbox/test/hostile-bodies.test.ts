// The bodies of hostile requests to the sandbox, as the reference server takes them: Content-Encoding decoded,
// other charsets refused, a byte-order mark stripped, NUL, unpaired surrogates and deep nesting refused with a
// pointer, and an upload's `file` part taken however it is sent. Every answer is checked against the contract
// (support/hostile-requests.ts).
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/server.ts';
import { deref } from '../../test/contract/openapi-document.ts';
import {
  bearer,
  credentials,
  dataFileId,
  doc,
  edgeList,
  form,
  graph,
  json,
  type Part,
  startedSandbox,
  upload,
} from './support/hostile-requests.ts';

let sandbox: Sandbox;
let call: Awaited<ReturnType<typeof startedSandbox>>['call'];
beforeAll(async () => ({ sandbox, call } = await startedSandbox()));
afterAll(() => sandbox?.close());

describe('the bytes of a body', () => {
  it('a body without Content-Type answers 415, as the reference server does', async () => {
    for (const [path, body] of [
      ['/problem/maxcut', graph],
      ['/problem/maxcut', ''],
      ['/data_file', upload({ value: edgeList }).body],
    ] as const) {
      const answer = await call('POST', path, { headers: bearer, body });
      expect([path, answer.status, answer.body.code]).toEqual([path, 415, 'unsupported_media_type']);
    }
  });

  it('a JSON body in a charset other than UTF-8 answers 415; utf-8 and utf8 in any case are accepted', async () => {
    for (const charset of ['latin1', 'iso-8859-1', 'utf-16', 'us-ascii']) {
      for (const [path, body, headers] of [
        ['/problem/maxcut', graph, json],
        ['/login', credentials('anyone'), {}],
      ] as const) {
        const answer = await call('POST', path, {
          headers: { ...headers, 'content-type': `application/json; charset=${charset}` },
          body,
        });
        expect([path, charset, answer.status, answer.body.code]).toEqual([
          path,
          charset,
          415,
          'unsupported_media_type',
        ]);
      }
    }
    for (const charset of ['utf-8', 'UTF-8', 'utf8', 'Utf8', '"utf-8"']) {
      expect(
        (
          await call('POST', '/problem/maxcut', {
            headers: { ...json, 'content-type': `application/json; charset=${charset}` },
            body: graph,
          })
        ).status,
      ).toBe(200);
    }
  });

  it('gzip, deflate, br and identity bodies are decoded, with the limits applied to the decoded size', async () => {
    const encoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: gzipSync,
      deflate: deflateSync,
      br: brotliCompressSync,
      identity: (b) => b,
      GZIP: gzipSync,
      ' br ': brotliCompressSync,
    };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const answer = await call('POST', '/problem/maxcut', {
        headers: { ...json, 'content-encoding': encoding },
        body: encode(Buffer.from(graph)),
      });
      expect([encoding, answer.status, answer.body]).toEqual([
        encoding,
        200,
        { detail: 'Job created', job: 'K7Q2M9X4TB1R' },
      ]);
    }
    const login = await call('POST', '/login', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(credentials('anyone')),
    });
    expect(login.status).toBe(200);
    const sized = (bytes: number) => gzipSync(Buffer.from(graph.padEnd(bytes, ' ')));
    const over = await call('POST', '/problem/maxcut', {
      headers: { ...json, 'content-encoding': 'gzip' },
      body: sized(4_194_304),
    });
    expect([over.status, over.body.code, over.body.max_bytes]).toEqual([413, 'payload_too_large', 4_194_304]);
    expect(
      (
        await call('POST', '/problem/maxcut', {
          headers: { ...json, 'content-encoding': 'gzip' },
          body: sized(4_194_303),
        })
      ).status,
    ).toBe(200);
    const files = upload({ value: edgeList });
    expect(
      (
        await call('POST', '/data_file', {
          headers: { ...files.headers, 'content-encoding': 'br' },
          body: brotliCompressSync(files.body),
        })
      ).status,
    ).toBe(201);
  });

  it('a corrupt encoded body answers 400 invalid_request saying it cannot be decoded', async () => {
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const answer = await call('POST', '/problem/maxcut', {
        headers: { ...json, 'content-encoding': encoding },
        body: Buffer.from('this is not compressed at all'),
      });
      expect([answer.status, answer.body.code]).toEqual([400, 'invalid_request']);
      expect(answer.body.detail).toMatch(
        new RegExp(`^The body cannot be decoded \\(Content-Encoding: ${encoding}\\): .+`),
      );
    }
    const truncated = gzipSync(Buffer.from(graph)).subarray(0, 12);
    expect(
      (await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': 'gzip' }, body: truncated }))
        .status,
    ).toBe(400);
  });

  it('any other Content-Encoding (zstd, compress, a list) answers 415', async () => {
    for (const encoding of ['zstd', 'compress', 'x-gzip', 'gzip, br', 'identity, gzip', 'chunked']) {
      const answer = await call('POST', '/problem/maxcut', {
        headers: { ...json, 'content-encoding': encoding },
        body: graph,
      });
      expect([encoding, answer.status, answer.body.code]).toEqual([encoding, 415, 'unsupported_media_type']);
    }
    const files = upload({ value: edgeList });
    expect(
      (
        await call('POST', '/data_file', {
          headers: { ...files.headers, 'content-encoding': 'zstd' },
          body: files.body,
        })
      ).status,
    ).toBe(415);
  });

  it('a JSON body starting with the UTF-8 byte-order mark is accepted, the mark stripped', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(
      (await call('POST', '/problem/maxcut', { headers: json, body: Buffer.concat([bom, Buffer.from(graph)]) })).status,
    ).toBe(200);
    expect(
      (
        await call('POST', '/login', {
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat([bom, Buffer.from(credentials('anyone'))]),
        })
      ).status,
    ).toBe(200);
    const gzipped = gzipSync(Buffer.concat([bom, Buffer.from(graph)]));
    expect(
      (await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': 'gzip' }, body: gzipped }))
        .status,
    ).toBe(200);
  });
});

describe('hostile values in JSON bodies', () => {
  const refused = (pointer: string, detail: string) => ({
    status: 400,
    code: 'invalid_request',
    errors: [{ pointer, detail }],
  });
  const nul = 'must not contain U+0000 (NUL)';
  const unpaired = 'must not contain an unpaired surrogate';
  const withParams = (params: string) =>
    `{"data_file_identifier": "${dataFileId}", "solvers": [{"name": "exact", "params": ${params}}]}`;

  it('a number no double holds (1e309) answers 400 with its pointer, as the reference server answers (it was accepted)', async () => {
    const qubo = await call('POST', '/problem/qubo', {
      headers: json,
      body: '{"num_variables": 2, "q_matrix": [[0, 1e309], [1, 0]]}',
    });
    expect(qubo.body).toMatchObject(refused('/q_matrix/0/1', 'must be number'));
    const maxcut = await call('POST', '/problem/maxcut', {
      headers: json,
      body: '{"num_nodes": 2, "adj_matrix": [[0, 1], [-1e309, 0]]}',
    });
    expect(maxcut.body).toMatchObject(refused('/adj_matrix/1/0', 'must be number'));
    const param = await call('POST', '/problem/maxcut', { headers: json, body: withParams('{"seed": 1e400}') });
    expect(param.body).toMatchObject(refused('/solvers/0/params/seed', 'must be number'));
  });

  it('a string value or a property name with U+0000 answers 400 with its pointer', async () => {
    const login = await call('POST', '/login', {
      headers: { 'content-type': 'application/json' },
      body: credentials('a\\u0000b'),
    });
    expect(login.body).toMatchObject(refused('/username', nul));
    const value = await call('POST', '/problem/maxcut', { headers: json, body: withParams('{"note": "x\\u0000"}') });
    expect(value.body).toMatchObject(refused('/solvers/0/params/note', nul));
    const name = await call('POST', '/problem/maxcut', { headers: json, body: withParams('{"k\\u0000/~": 1}') });
    expect(name.body).toMatchObject(refused('/solvers/0/params/k\u0000~1~0', nul));
  });

  it('an unpaired surrogate (high or low, in a value or a name) answers 400 with its pointer; a valid pair is accepted', async () => {
    for (const lone of ['\\ud800', '\\udfff', 'a\\udc00b', '\\ud83d']) {
      const answer = await call('POST', '/login', {
        headers: { 'content-type': 'application/json' },
        body: credentials(lone),
      });
      expect([lone, answer.body]).toMatchObject([lone, refused('/username', unpaired)]);
    }
    const name = await call('POST', '/problem/maxcut', { headers: json, body: withParams('{"\\udead": 1}') });
    expect(name.body).toMatchObject(refused('/solvers/0/params/\udead', unpaired));
    expect(
      (
        await call('POST', '/login', {
          headers: { 'content-type': 'application/json' },
          body: credentials('\\ud83d\\ude00 😀'),
        })
      ).status,
    ).toBe(200);
  });

  it('nesting deeper than 32 levels answers 400 with the pointer of the first value at depth 33; 32 levels are accepted', async () => {
    // The top-level object is depth 1, solvers 2, the solver 3, params 4: params and 28 objects inside reach 32.
    const nested = (levels: number) => '{"x": '.repeat(levels) + '1' + '}'.repeat(levels);
    expect((await call('POST', '/problem/maxcut', { headers: json, body: withParams(nested(29)) })).status).toBe(200);
    const deep = await call('POST', '/problem/maxcut', { headers: json, body: withParams(nested(30)) });
    expect(deep.body).toMatchObject(
      refused(`/solvers/0/params${'/x'.repeat(29)}`, 'must not be nested deeper than 32 levels'),
    );
  });

  it('10,000 levels of nesting answer 400 (an iterative check, no stack overflow)', async () => {
    const arrays = await call('POST', '/problem/maxcut', {
      headers: json,
      body: '['.repeat(10_000) + ']'.repeat(10_000),
    });
    expect(arrays.body).toMatchObject(refused('/0'.repeat(32), 'must not be nested deeper than 32 levels'));
    const objects = await call('POST', '/problem/maxcut', {
      headers: json,
      body: '{"a": '.repeat(10_000) + '1' + '}'.repeat(10_000),
    });
    expect(objects.body).toMatchObject(refused('/a'.repeat(32), 'must not be nested deeper than 32 levels'));
  });
});

describe('uploads', () => {
  const created = deref(doc, doc.components.examples.DataFileUploadCreated)!.value;

  it("the file part is the file with or without a file name, and whatever its content type (regression: a file name without Content-Type answered 500, Prism's multipart parser threw)", async () => {
    const files: Omit<Part, 'name'>[] = [
      { value: edgeList },
      { value: edgeList, filename: '' },
      { value: edgeList, filename: 'g.txt' },
      { value: edgeList, filename: 'a=b; c.txt', type: 'text/plain' },
      { value: edgeList, filename: 'g.png', type: 'image/png' },
      { value: '{"num_nodes": 1, "adj_matrix": [[0]]}', type: 'application/json' },
    ];
    for (const file of files) {
      const answer = await call('POST', '/data_file', upload(file));
      expect([file, answer.status, answer.body]).toEqual([file, 201, created]);
      expect(answer.headers.location).toBe(`/data_file/${dataFileId}`);
    }
  });

  it("regression: a part with an empty name or none answers 400 invalid_request, not 500 (Prism's multipart parser threw on it); so does a form cut short", async () => {
    for (const part of [{ value: 'z' }, { name: '', value: 'z' }, { name: '', filename: 'x', value: 'z' }]) {
      // First, so that the one file part the form may hold is this one (the reference server's busboy limit).
      const answer = await call(
        'POST',
        '/data_file',
        form([
          part,
          { name: 'file', value: edgeList },
          { name: 'problem_id', value: 'maxcut' },
          { name: 'name', value: 'g.txt' },
        ]),
      );
      expect([part, answer.status, answer.body.code, answer.body.errors?.[0]?.pointer]).toEqual([
        part,
        400,
        'invalid_request',
        '/',
      ]);
    }
    // Cut inside the file part, whose stream then fails too (an 'error' nobody heard would end the process).
    const files = form([
      { name: 'problem_id', value: 'maxcut' },
      { name: 'name', value: 'g.txt' },
      { name: 'file', value: edgeList.repeat(100) },
    ]);
    const cut = await call('POST', '/data_file', {
      headers: files.headers,
      body: files.body.subarray(0, files.body.length - 100),
    });
    expect([cut.status, cut.body.code]).toEqual([400, 'invalid_request']);
    const noBoundary = await call('POST', '/data_file', {
      headers: { ...bearer, 'content-type': 'multipart/form-data' },
      body: files.body,
    });
    expect([noBoundary.status, noBoundary.body.code]).toEqual([400, 'invalid_request']);
  });

  it('a text field with U+0000 (in its value or its name) answers 400 with its pointer', async () => {
    const value = await call(
      'POST',
      '/data_file',
      form([
        { name: 'file', value: edgeList },
        { name: 'problem_id', value: 'maxcut' },
        { name: 'name', value: 'g\u0000.txt' },
      ]),
    );
    expect(value.body).toMatchObject({
      status: 400,
      code: 'invalid_request',
      errors: [{ pointer: '/name', detail: 'must not contain U+0000 (NUL)' }],
    });
    const name = await call('POST', '/data_file', upload({ value: edgeList }, [{ name: 'note\u0000', value: 'x' }]));
    expect(name.body).toMatchObject({
      status: 400,
      errors: [{ pointer: '/note\u0000', detail: 'must not contain U+0000 (NUL)' }],
    });
  });
});
