// Record and replay (--har, jes-conformance replay). A short run against the reference server, through a proxy that
// notes every token and credential on the wire, is written as a HAR that the HAR 1.2 schema (har-schema) accepts,
// holds none of them and no password, and keeps bodies whole. Sent again by the command to a fresh server, nothing
// differs; sent through the broken proxy in front of the first, each broken behaviour is reported as its own kind of
// difference, and nothing else is (the two replays run side by side). Each part's seconds are printed.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeHar } from '../src/har/record.ts';
import { type RecordedHar, runConformance } from '../src/index.ts';
import { editJson, type Exchanged, startBrokenProxy } from './support/broken-proxy.ts';
import { combined } from './support/breakages.ts';
import { conformance } from './support/command.ts';
import { credentials, printed, type Started, startReference, users } from './support/targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-har-'));
const file = join(dir, 'run.har');
const only = ['missing_auth', 'ignored_auth', 'isolation', 'response_schema_conformance'];
const timed = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  try {
    return await work();
  } finally {
    console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
};

let recorded: Started;
let fresh: Started | undefined;
let starting: Promise<Started>;
/** What went over the wire that a HAR must not hold: every access_token, and every credential a request was let in with. */
const onTheWire = new Set<string>();
let har: RecordedHar;
let text: string;

beforeAll(async () => {
  recorded = await startReference();
  // The fresh server starts while the run is recorded (a start takes seconds of its own).
  starting = startReference().then((started) => (fresh = started));
  const noting = await startBrokenProxy(recorded.url, {
    response(request: Exchanged, answer) {
      const authorization = request.headers.authorization ?? '';
      if (/^Bearer /.test(authorization) && answer.status !== 401) onTheWire.add(authorization.slice(7));
      const token = /"access_token":"([^"]+)"/.exec(answer.body.toString('utf8'))?.[1];
      if (token) onTheWire.add(token);
      return answer;
    },
  });
  try {
    const report = await timed('the run recorded', () =>
      runConformance({ baseUrl: noting.url, ...credentials, only, har: file }),
    );
    expect(report.failed, printed(report)).toBe(0);
  } finally {
    await noting.close();
  }
  text = readFileSync(file, 'utf8');
  har = JSON.parse(text) as RecordedHar;
}, 120_000);
afterAll(async () => {
  await starting?.catch(() => undefined);
  await Promise.all([recorded?.stop(), fresh?.stop()]);
});

it('records the run as HAR 1.2 with every body whole and no password, token or credential', () => {
  const schemas = createRequire(import.meta.url)('har-schema') as Record<string, { $id: string }>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
  addFormats.default(ajv);
  for (const schema of Object.values(schemas)) if (schema.$id !== 'har.json#') ajv.addSchema(schema);
  const valid = ajv.compile(schemas.har!);
  expect(valid(har), ajv.errorsText(valid.errors)).toBe(true);

  const { log } = har;
  expect(log._jes).toMatchObject({ profile: 'full', only, users: { user: 'alice', user2: 'bob' } });
  expect(log.entries.length).toBeGreaterThan(150);
  expect(new Set(log.entries.map((e) => e._check))).toEqual(new Set(['versions', ...only]));
  expect(log.entries.filter((e) => e._user === 'user2').length).toBeGreaterThan(0);

  // Secrets: the passwords, and everything the proxy saw in Authorization or an access_token.
  expect(onTheWire.size).toBeGreaterThanOrEqual(3); // alice's session, bob's, the tour's login
  const basic = Buffer.from(`alice:${users.alice}`).toString('base64').replace(/=+$/, ''); // ignored_auth's
  // (includes, not toContain: a failure's diff of 5 MB would take vitest minutes)
  for (const secret of [users.alice, users.bob, basic, ...onTheWire])
    expect(text.includes(secret), `the HAR holds ${secret.slice(0, 12)}…`).toBe(false);
  const sent = log.entries.map(
    (e) => `${e.request.headers.map((h) => h.value).join('\n')}\n${e.request.postData?.text ?? ''}`,
  );
  // The tour's wrong password, as sent.
  expect(sent.some((t) => t.endsWith('\n{"username":"alice","password":"[redacted:password]-wrong"}'))).toBe(true);
  expect(sent.some((t) => t.includes('Bearer not-a-token'))).toBe(true); // ignored_auth's bad tokens are kept

  // Bodies whole: missing_auth's 4 MiB job body, the tour's upload as a form with its file.
  const large = log.entries.find((e) => (e.request.postData?.text?.length ?? 0) > 4_000_000)!;
  expect(Buffer.byteLength(large.request.postData!.text!)).toBe(large.request.bodySize);
  const upload = log.entries.find((e) => e._operationId === 'uploadDataFile' && e.response.status === 201)!;
  const part = upload.request.postData!.params!.find((p) => p.fileName !== undefined)!;
  expect(part).toMatchObject({ name: 'file', contentType: 'text/plain' });
  expect(JSON.parse(part.value!)).toHaveProperty('adj_matrix');
  // Answers whole too (the size is the answer's as it came; a redacted one's text is not that long).
  for (const e of log.entries.filter((e) => !e.response.content.text?.includes('[redacted:')))
    expect(e.response.content.size).toBe(Buffer.byteLength(e.response.content.text ?? ''));
});

/** The variables a replay reads its users from, as a run does. */
const env = {
  JES_CONFORMANCE_USERNAME: 'alice',
  JES_CONFORMANCE_PASSWORD: users.alice,
  JES_CONFORMANCE_SECOND_USER: `bob:${users.bob}`,
};

it.concurrent(
  'sent again to a fresh server by `jes-conformance replay`, gzipped (run.har.gz), nothing differs',
  { timeout: 120_000 },
  async () => {
    const { url } = await starting;
    const gzipped = join(dir, 'run.har.gz');
    writeHar(gzipped, har);
    expect(readFileSync(gzipped).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const run = await timed('the replay to a fresh server', () =>
      conformance(['replay', gzipped, '--base-url', url, '--report', join(dir, 'replay.md')], env),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^jes-conformance replay: .*run\.har\.gz \(\d+ requests of a run against http:\/\/127\.0\.0\.1:\d+: profile full/,
    );
    expect(lines.at(-1)).toBe(
      `${har.log.entries.length} of ${har.log.entries.length} requests sent again: no difference`,
    );
    expect(readFileSync(join(dir, 'replay.md'), 'utf8')).toContain('no difference');
  },
);

it.concurrent(
  'sent through the broken proxy, reports a wrong status, a broken schema, a wrong cut and another problem code',
  { timeout: 120_000 },
  async () => {
    const broken = combined('answers 500 to GET /data_file', 'leaves summary out of jobs', 'adds 1 to every cut');
    const proxy = await startBrokenProxy(recorded.url, {
      ...broken,
      async response(request, answer, tools) {
        const changed = await broken.response!(request, answer, tools);
        // A use case not found now says another code (same status).
        return changed.status === 404 && request.method === 'GET' && /^\/problem\//.test(request.url)
          ? editJson(changed, (b) => Object.assign(b, { code: 'gone', type: 'urn:jes:problem:gone' }))
          : changed;
      },
    });
    let run: Awaited<ReturnType<typeof conformance>>;
    try {
      run = await timed('the replay through the broken proxy', () =>
        conformance(['replay', file, '--base-url', proxy.url, '--junit', join(dir, 'replay.xml')], env),
      );
    } finally {
      await proxy.close();
    }
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const out = run.stdout.trim().split('\n');
    expect(out.at(-1)).toMatch(
      new RegExp(
        `^${har.log.entries.length} of ${har.log.entries.length} requests sent again: \\d+ differ \\(\\d+ status, \\d+ schema, \\d+ semantics\\)$`,
      ),
    );
    // One line per difference: `#entry check METHOD path: kind: what`.
    const found = out.slice(1, -1).map((line) => {
      const [, entry, check, method, path, kind, message] =
        /^#(\d+) (\w+) ([A-Z]+) (\S+): (status|schema|semantics): (.*)$/.exec(line) ?? [];
      expect(message, line).toBeDefined();
      expect(har.log.entries[Number(entry)]).toMatchObject({ _check: check, request: { method } });
      return { path: path!, kind: kind!, message: message!, method: method! };
    });
    expect(readFileSync(join(dir, 'replay.xml'), 'utf8')).toMatch(
      /<testsuites name="jes-conformance replay" tests="5" failures="[1-5]"/,
    );
    const lines = (kind: string, path: RegExp, message: RegExp) =>
      found.filter((d) => d.kind === kind && path.test(`${d.method} ${d.path}`) && message.test(d.message));
    const status = lines('status', /^GET \/data_file(\?|$)/, /^(200|401) then, 500 internal_error now$/);
    const schema = lines(
      'schema',
      /^GET \/job[/?]/,
      /^conformed then, not now: body \/job\/\w+ must have required property 'summary'/,
    );
    const cut = lines(
      'semantics',
      /^GET \/job\//,
      /^job \w+, [\w-]+: cut_value [\d.-]+, but its partition cuts [\d.-]+ \(right then\)$/,
    );
    const keys = lines(
      'semantics',
      /^GET \/job[/?]/,
      /^keys and types: \/job\/\{id\}<[A-Z]+>\/summary: there then, missing now$/,
    );
    const code = lines('semantics', /^GET \/problem\//, /^problem code problem_not_found then, gone now$/);
    const codeSchema = lines('schema', /^GET \/problem\//, /\/code must be equal to one of the allowed values/);
    for (const [what, matched] of Object.entries({ status, schema, cut, keys, code }))
      expect(matched.length, `${what}:\n${found.map((d) => JSON.stringify(d)).join('\n')}`).toBeGreaterThan(0);
    // Nothing else differs: the proxy's faults explain every line.
    const explained = new Set([...status, ...schema, ...cut, ...keys, ...code, ...codeSchema]);
    expect(found.filter((d) => !explained.has(d))).toEqual([]);
  },
);
