// Bodies an adversarial review sent that were answered 500 (or accepted and then failed the job): each now gets
// its documented 4xx problem, and what is accepted runs. Found by Schemathesis and by hand (issue 10).
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { sixNodes, sixNodesEdgeList } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();

const json = (body: string | Buffer, headers: Record<string, string> = {}) => ({
  body: typeof body === 'string' ? body : new Uint8Array(body),
  headers: { 'content-type': 'application/json', ...headers },
});
const nested = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth);

/** A multipart form written by hand, so that parts can lack a filename or carry any bytes. */
function form(
  parts: { name: string; filename?: string; type?: string; value: string }[],
  boundary = 'B0undary',
): { body: string; headers: Record<string, string> } {
  const body = parts
    .map(
      (p) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.value}\r\n`,
    )
    .join('');
  return {
    body: `${body}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('text the database cannot store is refused at the edge (400 with a pointer, was 500)', () => {
  it('a NUL in the login username', async () => {
    const reply = await jes.alice.request('POST', '/login', json('{"username":"al\\u0000ice","password":"x"}'));
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body.errors).toEqual([{ pointer: '/username', detail: 'must not contain U+0000 (NUL)' }]);
  });

  it("a NUL in a data file's name or description", async () => {
    for (const field of ['name', 'description']) {
      const parts = [
        { name: 'problem_id', value: 'maxcut' },
        { name: 'name', value: 'six.txt' },
        { name: 'file', filename: 'six.txt', value: sixNodesEdgeList },
      ];
      const withNul = parts.filter((p) => p.name !== field).concat({ name: field, value: 'a\u0000b' });
      const reply = await jes.alice.request('POST', '/data_file', form(withNul));
      expectProblem(reply, 400, 'invalid_request');
      expect(reply.body.errors[0].pointer).toBe(`/${field}`);
    }
  });

  it('a NUL or an unpaired surrogate inside solvers[].params, in a value or a name', async () => {
    const file = (await jes.alice.upload(sixNodesEdgeList, 'six.txt')).body.data_file_identifier;
    const cases: [string, string, string][] = [
      ['{"note":"a\\u0000b"}', '/solvers/0/params/note', 'NUL'],
      ['{"note":"\\ud800"}', '/solvers/0/params/note', 'unpaired surrogate'],
      ['{"a\\u0000b":1}', '/solvers/0/params/a\u0000b', 'NUL'],
    ];
    for (const [params, pointer, what] of cases) {
      const reply = await jes.alice.request(
        'POST',
        '/problem/maxcut',
        json(`{"data_file_identifier":"${file}","solvers":[{"name":"exact","params":${params}}]}`),
      );
      expectProblem(reply, 400, 'invalid_request');
      expect(reply.body.errors[0]).toEqual({ pointer, detail: expect.stringContaining(what) });
    }
  });
});

describe('nesting is refused before anything recurses into it (400, was 500: a stack overflow)', () => {
  it('params nested 5,000 and 10,000 deep, arrays and objects', async () => {
    const file = (await jes.alice.upload(sixNodesEdgeList, 'six.txt')).body.data_file_identifier;
    const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    for (const params of [`{"x":${nested(5000, '1')}}`, objects(10_000)]) {
      const reply = await jes.alice.request(
        'POST',
        '/problem/maxcut',
        json(`{"data_file_identifier":"${file}","solvers":[{"name":"exact","params":${params}}]}`),
      );
      expectProblem(reply, 400, 'invalid_request');
      expect(reply.body.errors[0].detail).toBe('must not be nested deeper than 32 levels');
      expect(reply.body.errors[0].pointer).toMatch(/^\/solvers\/0\/params\//);
    }
  });

  it('an inline job nested 10,000 deep', async () => {
    const reply = await jes.alice.request(
      'POST',
      '/problem/maxcut',
      json(`{"num_nodes":1,"adj_matrix":${nested(10_000, '0')}}`),
    );
    expectProblem(reply, 400, 'invalid_request');
  });
});

describe('charsets and encodings', () => {
  it('refuses JSON in UTF-16 or UTF-32 with 415 (was 500), and accepts utf-8 however it is written', async () => {
    const body = JSON.stringify({ username: 'alice', password: 'alice-password-1' });
    for (const [charset, bytes] of [
      ['utf-16', Buffer.from(`\ufeff${body}`, 'utf16le')],
      ['utf-16le', Buffer.from(body, 'utf16le')],
      ['utf-32', Buffer.from(body)],
      ['latin1', Buffer.from(body)],
      ['utf8', Buffer.from(body)],
    ] as const) {
      expectProblem(
        await jes.alice.request(
          'POST',
          '/login',
          json(bytes, { 'content-type': `application/json; charset=${charset}` }),
        ),
        415,
        'unsupported_media_type',
      );
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"']) {
      expect(
        (
          await jes.alice.request(
            'POST',
            '/login',
            json(body, { 'content-type': `application/json; charset=${charset}` }),
          )
        ).status,
      ).toBe(200);
    }
  });

  it('answers corrupt br, gzip and deflate bodies with 400 invalid_request (was 500), and decodes good ones', async () => {
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const reply = await jes.alice.request(
        'POST',
        '/problem/maxcut',
        json(Buffer.from('definitely not compressed'), { 'content-encoding': encoding }),
      );
      expectProblem(reply, 400, 'invalid_request');
      expect(reply.body.detail).toContain(`Content-Encoding: ${encoding}`);
    }
    const text = JSON.stringify(sixNodes);
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(text)],
      ['br', brotliCompressSync(text)],
    ] as const) {
      const job = await jes.alice.request('POST', '/problem/maxcut', json(bytes, { 'content-encoding': encoding }));
      expect(job.status).toBe(200);
      expect((await jes.alice.waitFor(job.body.job)).executions.exact.data.cut_value).toBe(53);
    }
  });

  it('decodes an upload sent gzip or br encoded (its compressed bytes were parsed as the form), and refuses zstd with 415', async () => {
    const upload = form([
      { name: 'problem_id', value: 'maxcut' },
      { name: 'name', value: 'six.txt' },
      { name: 'file', filename: 'six.txt', value: sixNodesEdgeList },
    ]);
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(upload.body)],
      ['br', brotliCompressSync(upload.body)],
    ] as const) {
      const reply = await jes.alice.request('POST', '/data_file', {
        body: new Uint8Array(bytes),
        headers: { ...upload.headers, 'content-encoding': encoding },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
      expect((await jes.alice.validated(reply.body.data_file_identifier)).bytes).toBe(
        Buffer.byteLength(sixNodesEdgeList),
      );
    }
    expectProblem(
      await jes.alice.request('POST', '/data_file', {
        body: upload.body,
        headers: { ...upload.headers, 'content-encoding': 'zstd' },
      }),
      415,
      'unsupported_media_type',
    );
    expectProblem(
      await jes.alice.request('POST', '/data_file', {
        body: 'not gzip',
        headers: { ...upload.headers, 'content-encoding': 'gzip' },
      }),
      400,
      'invalid_request',
    );
  });

  it('refuses JSON sent zstd, compress or twice encoded with 415: the encodings are identity, gzip, deflate and br', async () => {
    for (const encoding of ['zstd', 'compress', 'gzip, br']) {
      expectProblem(
        await jes.alice.request(
          'POST',
          '/problem/maxcut',
          json(JSON.stringify(sixNodes), { 'content-encoding': encoding }),
        ),
        415,
        'unsupported_media_type',
      );
    }
  });

  it('refuses an empty JSON body with 400 (it was a 500 on POST /problem)', async () => {
    for (const path of ['/problem/maxcut', '/login'])
      expectProblem(await jes.alice.request('POST', path, json('')), 400, 'invalid_request');
  });

  it('runs an inline job whose body starts with a byte-order mark (it used to end in ERROR/solver_failed)', async () => {
    const reply = await jes.alice.request(
      'POST',
      '/problem/maxcut',
      json(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(sixNodes))])),
    );
    expect(reply.status).toBe(200);
    const job = await jes.alice.waitFor(reply.body.job);
    expect(job.status).toBe('FINISHED');
    expect(job.executions.exact.data.cut_value).toBe(53);
    expect(job.input.bytes).toBe(Buffer.byteLength(JSON.stringify(sixNodes)));
  });

  it('runs a job from data files that start with a byte-order mark, as JSON and as an edge list', async () => {
    for (const text of [`\ufeff${JSON.stringify(sixNodes)}`, `\ufeff${sixNodesEdgeList}`]) {
      const id = (await jes.alice.upload(text, 'bom.txt')).body.data_file_identifier;
      expect((await jes.alice.validated(id)).status).toBe('READY');
      expect(
        (await jes.alice.waitFor(await jes.alice.start({ data_file_identifier: id }))).executions.exact.data.cut_value,
      ).toBe(53);
    }
  });
});

describe('weights that overflow a double when added (found by the fuzz test)', () => {
  const big = 1.7976931348623157e308;
  it('refuses an inline graph whose weights sum past a double with 422 (its cut was Infinity, and the job answered 500 ever after)', async () => {
    const reply = await jes.alice.post('/problem/maxcut?solver=exact', {
      num_nodes: 3,
      adj_matrix: [
        [0, big, 0],
        [big, 0, big],
        [0, big, 0],
      ],
    });
    expectProblem(reply, 422, 'invalid_input');
    expect(reply.body.errors[0].pointer).toBe('/adj_matrix');
    expect(
      (
        await jes.alice.post('/problem/maxcut?solver=exact', {
          num_nodes: 3,
          adj_matrix: [
            [0, big, 0],
            [big, 0, -big],
            [0, -big, 0],
          ],
        })
      ).status,
    ).toBe(422);
    const fine = await jes.alice.post('/problem/maxcut?solver=exact', {
      num_nodes: 2,
      adj_matrix: [
        [0, big],
        [big, 0],
      ],
    });
    expect((await jes.alice.waitFor(fine.body.job)).executions.exact.data.cut_value).toBe(big);
  });

  it('marks such a data file INVALID, also when a repeated edge merges past a double', async () => {
    for (const text of [
      `3 2\n1 2 ${big}\n2 3 ${big}\n`,
      `2 2\n1 2 ${big}\n2 1 ${big}\n`,
      JSON.stringify({
        num_nodes: 3,
        adj_matrix: [
          [0, big, 0],
          [big, 0, big],
          [0, big, 0],
        ],
      }),
    ]) {
      const id = (await jes.alice.upload(text, 'big.txt')).body.data_file_identifier;
      const record = await jes.alice.validated(id);
      expect(record.status).toBe('INVALID');
      expect(record.error.detail).toMatch(/sum to a finite number/);
    }
  });
});

describe('the upload form', () => {
  it('takes the part named file without a filename, as JSON or plain text (it was dropped: "must have required property file")', async () => {
    for (const [type, value] of [
      ['text/plain', sixNodesEdgeList],
      ['application/json', JSON.stringify(sixNodes)],
      [undefined, `${sixNodesEdgeList}\n`],
    ] as const) {
      const reply = await jes.alice.request(
        'POST',
        '/data_file',
        form([
          { name: 'problem_id', value: 'maxcut' },
          { name: 'name', value: 'six' },
          { name: 'file', value, ...(type ? { type } : {}) },
        ]),
      );
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
      const record = await jes.alice.validated(reply.body.data_file_identifier);
      expect(record).toMatchObject({ status: 'READY', num_nodes: 6, bytes: Buffer.byteLength(value) });
    }
  });

  it('answers a part with an empty name or none with 400, and takes a field named __proto__ as any other extra field', async () => {
    const base = [
      { name: 'problem_id', value: 'maxcut' },
      { name: 'name', value: 'six' },
      { name: 'file', filename: 'six.txt', value: sixNodesEdgeList },
    ];
    expectProblem(
      await jes.alice.request('POST', '/data_file', form([...base, { name: '', value: 'x' }])),
      400,
      'invalid_request',
    );
    const nameless = form(base).body.replace(
      '--B0undary--',
      '--B0undary\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B0undary--',
    );
    expectProblem(
      await jes.alice.request('POST', '/data_file', { body: nameless, headers: form([]).headers }),
      400,
      'invalid_request',
    );
    const fresh = [
      { name: 'problem_id', value: 'maxcut' },
      { name: 'name', value: 'proto' },
      { name: 'file', filename: 'six.txt', value: `${sixNodesEdgeList}\n\n` },
    ];
    const proto = await jes.alice.request(
      'POST',
      '/data_file',
      form([...fresh, { name: '__proto__', value: '{"name":"polluted"}' }]),
    );
    expect(proto.status).toBe(201);
    expect(proto.body.data_file[proto.body.data_file_identifier].name).toBe('proto');
    expect(
      (
        await jes.alice.request(
          'POST',
          '/data_file',
          form([...base, { name: 'other', filename: 'other.txt', value: 'x' }]),
        )
      ).status,
    ).toBeLessThan(300);
  });

  it('survives a form cut off inside a file part that is not the file', async () => {
    const cut = form([{ name: 'other', filename: 'other.txt', value: 'x'.repeat(1000) }]).body.replace(
      /\r\n--B0undary--\r\n$/,
      '',
    );
    expectProblem(
      await jes.alice.request('POST', '/data_file', {
        body: cut,
        headers: { 'content-type': 'multipart/form-data; boundary=B0undary' },
      }),
      400,
      'invalid_request',
    );
    expect((await jes.alice.get('/healthz')).status).toBe(200);
  });
});
