// "Reproduce with: curl …": each failure's command, pasted into a real shell (bash) as the command printed it,
// sends the same request again (method, URL, body to the byte, credentials) and gets the same status from the
// reference server behind a broken proxy. Tokens come from the login line printed once, passwords from the
// variable the suite reads them from: neither is ever printed. Behind a gateway that wants its key, TLS with a
// private CA and a client certificate, the commands send the key (-H), a given token and the certificates from
// the variables the suite reads them from, and print none of them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Exchanged, startBrokenProxy } from './support/broken-proxy.ts';
import { apiKey, combined } from './support/breakages.ts';
import { conformance } from './support/command.ts';
import { makeCertificates, startTlsProxy } from './support/tls.ts';
import { type Started, startReference, users } from './support/targets.ts';

let server: Started;
beforeAll(async () => {
  server = await startReference();
});
afterAll(() => server?.stop());

const fingerprint = (r: Exchanged) => ({
  method: r.method,
  url: r.url,
  authorization: r.headers.authorization,
  // A form is sent again with another boundary: the same form, other bytes.
  body: /^multipart\//.test(r.headers['content-type'] ?? '')
    ? 'a form'
    : createHash('sha1').update(r.body).digest('hex'),
});

/** Each failure the console shows: the status it got and its reproduce line. */
function reproductions(stdout: string): { status: number; command: string }[] {
  return stdout
    .split(/^ +✗ /m)
    .slice(1)
    .flatMap((block) => {
      const status = /^ +← (\d{3}) /m.exec(block)?.[1];
      const command = /^ +Reproduce with: (.+)$/m.exec(block)?.[1];
      return status && command ? [{ status: Number(status), command }] : [];
    });
}

function bash(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['-c', script],
      { env: { ...process.env, ...env }, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

it(
  'prints for each failure a curl command that a shell runs to the same request and status',
  { timeout: 300_000 },
  async () => {
    const seen: ReturnType<typeof fingerprint>[] = [];
    const breakage = combined(
      'answers 405 in plain text, not as a problem',
      'reads the body before authenticating',
      'accepts any token on GET /job',
      'refuses job bodies from 4,000,000 bytes',
      'refuses login bodies from 60,000 bytes',
      'refuses uploads with a description',
    );
    const proxy = await startBrokenProxy(server.url, {
      ...breakage,
      request: (r, tools) => (seen.push(fingerprint(r)), breakage.request!(r, tools)),
    });
    const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-'));
    const env = { JES_CONFORMANCE_USERNAME: 'alice', JES_CONFORMANCE_PASSWORD: users.alice };
    try {
      const only = 'unsupported_method,missing_auth,ignored_auth,limits,positive_data_acceptance';
      const run = await conformance(['--base-url', proxy.url, '--only', only, '--report', join(dir, 'report.md')], env);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout.trim().split('\n').at(-1)).toBe('0 passed, 5 failed, 0 skipped');

      // The token is set once, before the first command that needs it, from a login that reads the password's variable.
      const login = run.stdout.match(/^ +export JES_TOKEN=.*$/gm) ?? [];
      expect(login).toHaveLength(1);
      expect(login[0]).toContain(`'{"username":"alice","password":"'"$JES_CONFORMANCE_PASSWORD"'"}'`);
      expect(run.stdout).toMatch(
        /^ +# JES_TOKEN: a token of alice \(the password from JES_CONFORMANCE_PASSWORD\)\n +export JES_TOKEN=/m,
      );

      const cases = reproductions(run.stdout);
      const commands = cases.map((c) => c.command).join('\n');
      expect(commands).toMatch(/ -X PUT .* -H "authorization: Bearer \$JES_TOKEN" .*--data-binary '\{\}'/); // unsupported_method
      expect(commands).toMatch(/--data-binary \$'--jes-conformance-.*\\r\\n/); // missing_auth's unfinished multipart body
      expect(commands).toMatch(/--data-binary @\/.*\/report\.bodies\/\d+-missing_auth\.json/); // its body of 4 MiB, in a file
      expect(commands).toMatch(
        /-H "authorization: Basic \$\(printf %s alice:"\$JES_CONFORMANCE_PASSWORD" \| base64 \| tr -d '\\n='\)"/,
      ); // ignored_auth
      expect(commands).toMatch(
        /^\{ cat .*part1; printf %s "\$JES_CONFORMANCE_PASSWORD"; cat .*part2; \} \| curl -i -X POST \S+\/login /m,
      ); // limits: the login body
      expect(commands).toMatch(
        /^printf %s \$'.*' \| curl -i -X POST \S+\/data_file .* -F 'file=@-;filename=".*";type=text\/plain'/m,
      ); // positive_data_acceptance

      for (const { status, command } of cases) {
        const before = seen.length;
        const answered = await bash(`set -e\n${login[0]!.trim()}\n${command} -s -o /dev/null -w '%{http_code}'`, env);
        expect({ command, status: Number(answered) }).toEqual({ command, status });
        const replayed = seen.slice(before).at(-1)!;
        const tokenOfItsOwn = command.includes('$JES_TOKEN');
        const matching = seen
          .slice(0, before)
          .filter((original) =>
            isDeepEqual(
              { ...original, ...(tokenOfItsOwn ? { authorization: '' } : {}) },
              { ...replayed, ...(tokenOfItsOwn ? { authorization: '' } : {}) },
            ),
          );
        expect(matching.length, `the request of ${command} was sent by the run`).toBeGreaterThan(0);
      }
      expect(cases.length).toBeGreaterThanOrEqual(15);

      const everything = [
        run.stdout,
        run.stderr,
        readFileSync(join(dir, 'report.md'), 'utf8'),
        ...readdirSync(join(dir, 'report.bodies')).map((f) => readFileSync(join(dir, 'report.bodies', f), 'utf8')),
      ];
      for (const text of everything) expect(text).not.toContain(users.alice);
    } finally {
      await proxy.close();
    }
  },
);

function isDeepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

it(
  'behind a gateway, TLS with a private CA and a client certificate: the commands send the key, the token and the certificates from their variables',
  { timeout: 120_000 },
  async () => {
    const started = performance.now();
    const seen: ReturnType<typeof fingerprint>[] = [];
    const breakage = combined(
      'sits behind a gateway that wants an X-Api-Key header',
      'answers 405 in plain text, not as a problem',
      'accepts any token on GET /job',
    );
    const proxy = await startBrokenProxy(server.url, {
      ...breakage,
      request: (r, tools) => (seen.push(fingerprint(r)), breakage.request!(r, tools)),
    });
    const certificates = await makeCertificates();
    const tls = await startTlsProxy(proxy.url, certificates, { clientCertificate: true });
    const login = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: users.alice }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const key = apiKey['X-Api-Key'];
    const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-'));
    const [report, junit] = [join(dir, 'report.md'), join(dir, 'junit.xml')];
    try {
      const { ca, client } = certificates;
      const run = await conformance(
        [
          ...['--base-url', tls.url, '--only', 'unsupported_method,ignored_auth', '-H', `X-Api-Key: ${key}`],
          ...['--ca-file', ca.certFile, '--cert', client.certFile, '--key', client.keyFile],
          ...['--report', report, '--junit', junit],
        ],
        { JES_CONFORMANCE_TOKEN: token, JES_CONFORMANCE_USERNAME: '', JES_CONFORMANCE_PASSWORD: '' },
      );
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout.trim().split('\n').at(-1)).toBe('0 passed, 2 failed, 0 skipped');
      // What came from flags is said once: the files' paths exported, the headers to export; the token was read from its variable.
      const exports = run.stdout.match(/^ +export JES_CONFORMANCE_(CA_FILE|CERT|KEY)=.*$/gm) ?? [];
      expect(exports.map((line) => line.trim())).toEqual([
        `export JES_CONFORMANCE_CA_FILE=${ca.certFile}`,
        `export JES_CONFORMANCE_CERT=${client.certFile}`,
        `export JES_CONFORMANCE_KEY=${client.keyFile}`,
      ]);
      expect(run.stdout.match(/^ +# JES_CONFORMANCE_HEADERS: .*$/gm)?.map((l) => l.trim())).toEqual([
        '# JES_CONFORMANCE_HEADERS: export the headers given with -H (x-api-key), one "Name: value" a line',
      ]);
      expect(run.stdout).not.toMatch(/JES_TOKEN/);
      expect(run.stdout).toMatch(/^ +x-api-key: \(hidden\)\n +authorization: Bearer \(hidden\)$/m);

      const cases = reproductions(run.stdout);
      expect(cases.length).toBeGreaterThanOrEqual(6);
      for (const { command } of cases)
        expect(command).toMatch(
          /^curl -i (-X \S+ )?\S+ --cacert "\$JES_CONFORMANCE_CA_FILE" --cert "\$JES_CONFORMANCE_CERT" --key "\$JES_CONFORMANCE_KEY" -H @<\(printf '%s\\n' "\$JES_CONFORMANCE_HEADERS"\) /,
        );
      expect(cases.map((c) => c.command).join('\n')).toMatch(/-H "authorization: Bearer \$JES_CONFORMANCE_TOKEN"/);
      const env = { JES_CONFORMANCE_TOKEN: token, JES_CONFORMANCE_HEADERS: `X-Api-Key: ${key}` };
      for (const { status, command } of cases) {
        const before = seen.length;
        const script = `set -e\n${exports.join('\n')}\n${command} -s -o /dev/null -w '%{http_code}'`;
        expect({ command, status: Number(await bash(script, env)) }).toEqual({ command, status });
        const replayed = seen.slice(before).at(-1)!;
        expect(seen.slice(0, before).some((original) => isDeepEqual(original, replayed))).toBe(true);
      }

      expect(run.stderr).toBe('');
      for (const text of [run.stdout, readFileSync(report, 'utf8'), readFileSync(junit, 'utf8')]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(token);
        expect(text).toContain('x-api-key: (hidden)');
      }
    } finally {
      await tls.close();
      await proxy.close();
      console.log(
        `reproductions through a gateway and mutual TLS: ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  },
);
