// The five packages where their users are: packed with `npm pack`, installed into a fresh project outside the
// repository, and used the stock way on Node 24 and Node 22: a plain .mjs script and a strict TypeScript
// project on @jes/client, `npx jes login/submit --wait`, `npx jes-conformance` against `npx jes-server` (on
// the embedded database, and behind TLS with a CA of its own and a client certificate, with conformance/README.md's
// example check of a team's own) and against `npx jes-sandbox` (stateful: the full profile, as a deployment); then a
// page bundling the installed @jes/client, in Chromium, against the server on another origin (CORS);
// client/README.md's setup snippets in the CommonJS project `npm init -y` makes; and on Node 20, each command's one
// line naming the Node it needs. Sizes and times are printed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockAfter } from '../../client/test/support/readme.ts';
import { makeCertificates, startTlsProxy } from '../../conformance/test/support/tls.ts';
import { followsContract } from '../../scripts/package-versions.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { freePort } from '../support/child-server.ts';
import {
  installConsumer,
  packAll,
  repoRoot,
  run,
  runtimes,
  type Serving,
  serve,
  succeed,
  type Tarball,
} from './support/consumer.ts';

const user = { name: 'demo', password: 'correct-horse-battery-staple' };
const bins = ['jes', 'jes-conformance', 'jes-sandbox', 'jes-server'];
const second = { name: 'bob', password: 'bob-password-2' };
const listening = /listening on (http:\/\/\S+)/;
const { runtimes: nodes, skipped } = await runtimes(22);
if (skipped) console.warn(`the packages run on ${nodes[0]!.name} only: ${skipped}`);
// Node 20, older than the packages support: for the one line each command prints there.
const { runtimes: withOld, skipped: noOld } = await runtimes(20);
const oldNode = withOld[1];
if (noOld) console.warn(`skipping the commands on Node 20: ${noOld}`);
const typescriptVersion = (
  JSON.parse(readFileSync(join(repoRoot, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }
).version;

describe('the packed packages, installed outside the repository', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jes-consumer-'));
  const project = join(dir, 'project');
  let tarballs: Tarball[];

  beforeAll(async () => {
    let started = performance.now();
    tarballs = await packAll(join(dir, 'tarballs'));
    console.log(
      `packed in ${((performance.now() - started) / 1000).toFixed(1)} s: ${tarballs.map((t) => `${basename(t.file)} ${(t.bytes / 1024).toFixed(1)} KiB`).join(', ')}`,
    );
    started = performance.now();
    await installConsumer(project, tarballs, [`typescript@${typescriptVersion}`, '@types/node@22']);
    // A CommonJS project, as `npm init -y` makes one, holding client/README.md's setup snippets as a user saves them.
    mkdirSync(join(project, 'commonjs'));
    await succeed('npm', ['init', '-y'], { cwd: join(project, 'commonjs') });
    writeFileSync(join(project, 'commonjs', 'start.mjs'), blockAfter('tested: setup-module', 'js'));
    writeFileSync(join(project, 'commonjs', 'start.js'), blockAfter('tested: setup-commonjs', 'js'));
    // conformance/README.md's check of a team's own, as a user saves it (tsconfig.json type-checks it, with checkJs).
    writeFileSync(join(project, 'team-checks.mjs'), blockAfter('tested: own-checks', 'js', 'conformance/README.md'));
    console.log(
      `installed the tarballs (and typescript, @types/node) into ${project} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 900_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('packs the five packages, each with its build, license and readme, and no TypeScript source', () => {
    // Named by the one version of the packages (scripts/package-versions.ts).
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    expect(tarballs.map((t) => basename(t.file)).sort()).toEqual(
      ['client', 'conformance', 'contract', 'sandbox', 'server'].map((name) => `jes-${name}-${version}.tgz`),
    );
    for (const name of ['client', 'conformance', 'contract', 'sandbox', 'server']) {
      const root = join(project, 'node_modules', '@jes', name);
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      expect(pkg.private, name).toBe(false);
      expect(pkg.exports['.'].types, name).toMatch(/^\.\/dist\/src\/.*\.d\.ts$/);
      for (const file of [
        'LICENSE',
        'README.md',
        pkg.exports['.'].import,
        pkg.exports['.'].types,
        ...Object.values((pkg.bin ?? {}) as Record<string, string>),
      ]) {
        expect(() => readFileSync(join(root, file)), `${name}: ${file}`).not.toThrow();
      }
      expect(existsSync(join(root, 'src')), `${name} ships src/`).toBe(false);
    }
    // The contract is carried once, by @jes/contract, which the others read it from.
    expect(readFileSync(join(project, 'node_modules/@jes/contract/openapi.yaml'), 'utf8')).toBe(
      readFileSync(join(repoRoot, 'openapi.yaml'), 'utf8'),
    );
    for (const name of ['conformance', 'sandbox', 'server'])
      expect(() => readFileSync(join(project, 'node_modules/@jes', name, 'openapi.yaml')), name).toThrow();
  });

  it('the client installs without the server: @jes/contract, the one @jes package it needs, depends on nothing', () => {
    const manifest = (name: string) =>
      JSON.parse(readFileSync(join(project, 'node_modules/@jes', name, 'package.json'), 'utf8'));
    expect(Object.keys(manifest('client').dependencies).sort()).toEqual([
      '@jes/contract',
      'commander',
      'eventsource-parser',
      'openapi-fetch',
      'standardwebhooks',
    ]);
    // What only its Node entry needs (Ajv, yaml) is an optional peer, which npm leaves to the packages that use it.
    const contract = manifest('contract');
    expect(contract.dependencies ?? {}).toEqual({});
    expect(
      Object.values(contract.peerDependenciesMeta ?? {}).every((peer) => (peer as { optional?: boolean }).optional),
    ).toBe(true);
  });

  it("@jes/server runs express-openapi-validator with the repository's patch (patches/), bundled into its dist/vendor/, not the registry's", () => {
    // Issue 29, 2: the patch helped only clones while the installed server ran the registry's copy. Nothing else can be
    // loaded: the project has no express-openapi-validator of its own.
    const server = join(project, 'node_modules/@jes/server');
    expect(() => readFileSync(join(project, 'node_modules/express-openapi-validator/package.json'))).toThrow();
    expect(readFileSync(join(server, 'dist/src/app.js'), 'utf8')).toContain(
      `from '../vendor/express-openapi-validator.cjs'`,
    );
    // One name the patch adds to each file it changes (esbuild keeps names, not comments).
    const bundle = readFileSync(join(server, 'dist/vendor/express-openapi-validator.cjs'), 'utf8');
    const patch = readFileSync(join(repoRoot, 'patches/express-openapi-validator+5.6.2.patch'), 'utf8');
    for (const name of [
      'routeRegexps', // openapi.metadata.js
      'emptyQueryIsEmpty', // openapi.request.validator.js, req.parameter.mutator.js
      'rawQueryOf', // req.parameter.mutator.js
      'remembersVerdicts', // openapi.response.validator.js
      'pickedContentTypes', // openapi.response.validator.js
      'withContext', // openapi.validator.js
    ]) {
      expect(patch, name).toContain(name);
      expect(bundle, name).toContain(name);
    }
    expect(readFileSync(join(server, 'dist/vendor/express-openapi-validator.LICENSES.txt'), 'utf8')).toMatch(
      /^express-openapi-validator@5\.6\.2 \(MIT\)$/m,
    );
  });

  // Two runs of tsc over every package's declarations: 30 s in a full run, past the default 60 s on a busier machine.
  it("a strict TypeScript project (nodenext, skipLibCheck off) type-checks against every package (conformance/README.md's check of a team's own too, with checkJs), and a wrongly typed client input stays an error", async () => {
    // typed.ts marks its wrong input with @ts-expect-error: were the input not an error, tsc would fail on the unused directive.
    const tsc = await run('npx', ['--no-install', 'tsc', '-p', '.'], { cwd: project });
    expect(tsc.stdout).toBe('');
    expect(tsc.code).toBe(0);
    const wrong = readFileSync(join(project, 'typed.ts'), 'utf8').replace(/^\s*\/\/ @ts-expect-error.*\n/m, '');
    writeFileSync(join(project, 'typed-wrong.ts'), wrong);
    const refused = await run(
      'npx',
      ['--no-install', 'tsc', '--noEmit', '--strict', '--module', 'nodenext', '--types', 'node', 'typed-wrong.ts'],
      { cwd: project },
    );
    const line = wrong.split('\n').findIndex((l) => l.includes("num_nodes: '2'")) + 1;
    expect(refused.code).not.toBe(0);
    expect(refused.stdout.trim()).toMatch(
      new RegExp(
        `^typed-wrong\\.ts\\(${line},\\d+\\): error TS2322: Type 'string' is not assignable to type 'number'\\.$`,
      ),
    );
  }, 180_000);

  describe.each(nodes.map((node, i) => ({ ...node, home: join(dir, `home-${i}`) })))(
    'on Node $name',
    ({ env, home, node }) => {
      const userEnv = { ...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
      let server: Serving;

      beforeAll(async () => {
        server = await serve('npx', ['--no-install', 'jes-server'], {
          cwd: project,
          ready: listening,
          env: {
            ...userEnv,
            PORT: '0',
            JES_DATA_DIR: join(home, 'data'),
            JES_USERS: `${user.name}:${user.password},${second.name}:${second.password}`,
            JES_WORKERS: '2',
            JES_RATE_LIMITS: 'off',
            JES_LOG_FORMAT: 'pretty',
            // The suite's webhook receiver listens on this machine's loopback (--webhook-listen below).
            JES_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
          },
        });
      }, 120_000);
      afterAll(() => server?.stop());

      it('npx jes-server starts on the embedded database, logs human lines (pino-pretty) when asked, and answers /healthz', async () => {
        expect(stripVTControlCharacters(server.output())).toMatch(
          /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: database ready in [\d.]+ s: the embedded database in .*data$/m,
        );
        const health = await fetch(`${server.url}/healthz`);
        expect(health.status).toBe(200);
        // The versions of the package and of the contract it carries, which keep the rule of scripts/package-versions.ts.
        const installed = join(project, 'node_modules/@jes/server');
        const body = await health.json();
        expect(body).toMatchObject({
          version: JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version,
          contract_version: /^ {2}version: (\S+)$/m.exec(
            readFileSync(join(project, 'node_modules/@jes/contract/openapi.yaml'), 'utf8'),
          )![1],
        });
        expect(followsContract(body.version, body.contract_version), JSON.stringify(body)).toBe(true);
      });

      // Issue 33, where operators install it: the probes and the metrics of the running server, and the tracing SDK
      // the package loads only when the OTEL variables ask for it (a server of its own, exporting to its stdout).
      it('npx jes-server answers /readyz and /metrics, and traces when OTEL_TRACES_EXPORTER asks: a problem carries its trace id', async () => {
        const ready = await fetch(`${server.url}/readyz`);
        expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        expect(metrics).toMatch(/^jes_build_info\{.*role="api".*\} 1$/m);
        expect(metrics).toMatch(/^jes_http_requests_total\{operation="getHealth",method="GET",status="200"\} [1-9]/m);
        const traced = await serve('npx', ['--no-install', 'jes-server'], {
          cwd: project,
          ready: listening,
          env: {
            ...userEnv,
            PORT: '0',
            JES_DATA_DIR: 'memory:',
            JES_WORKERS: '0',
            OTEL_TRACES_EXPORTER: 'console',
            OTEL_BSP_SCHEDULE_DELAY: '100',
          },
        });
        try {
          const problem = await (await fetch(`${traced.url}/no-such-path`)).json();
          expect(problem.code).toBe('not_found');
          expect(problem.trace_id).toMatch(/^[0-9a-f]{32}$/);
          await expect.poll(() => traced.output(), { timeout: 10_000 }).toContain(problem.trace_id);
        } finally {
          await traced.stop();
        }
      });

      it("client/README.md's setup snippets run in the CommonJS project npm init -y makes: as start.mjs, and required as start.js", async () => {
        const commonjs = join(project, 'commonjs');
        expect(JSON.parse(readFileSync(join(commonjs, 'package.json'), 'utf8')).type).toBe('commonjs');
        for (const file of ['start.mjs', 'start.js']) {
          const ran = await succeed('node', [file], {
            cwd: commonjs,
            env: { ...userEnv, JES_BASE_URL: server.url, JES_USERNAME: user.name, JES_PASSWORD: user.password },
          });
          expect(ran.stdout.trim(), file).toMatch(/^[A-Z0-9]{12}$/);
          expect(ran.stderr, file).toBe('');
        }
      });

      it('npx jes-server serves the reference, the guides and the dashboard its package carries, and the contract they link to', async () => {
        for (const path of [
          '/docs/',
          '/docs/guides/getting-started.html',
          '/docs/guides/security',
          '/openapi.yaml',
          '/app/',
        ]) {
          const answer = await fetch(`${server.url}${path}`);
          expect(answer.status, path).toBe(200);
        }
        // The dashboard's page loads its script from the package too.
        const script = /src="(app-[A-Z0-9]+\.js)"/.exec(await (await fetch(`${server.url}/app/`)).text())?.[1];
        expect((await fetch(`${server.url}/app/${script}`)).status).toBe(200);
        expect(await (await fetch(`${server.url}/docs/guides/errors.html`)).text()).toContain(
          '<a href="../index.html">API reference</a>',
        );
      });

      it('a plain .mjs script with createJesClient solves the 6-node example: 53', async () => {
        const solved = await succeed('node', ['solve.mjs'], {
          cwd: project,
          env: { ...userEnv, JES_BASE_URL: server.url, JES_USERNAME: user.name, JES_PASSWORD: user.password },
        });
        expect(solved.stdout.trim()).toBe('cut 53');
      });

      it('npx jes login, then npx jes submit --wait, reads 53', async () => {
        const cli = { cwd: project, env: { ...userEnv, JES_BASE_URL: server.url } };
        const login = await succeed(
          'npx',
          ['--no-install', 'jes', 'login', '--username', user.name, '--password-stdin'],
          { ...cli, input: `${user.password}\n` },
        );
        expect(login.stdout).toContain(`Logged in to ${server.url} as ${user.name}`);
        const submitted = await succeed(
          'npx',
          ['--no-install', 'jes', 'submit', 'maxcut', 'six-node.json', '--solver', 'exact', '--wait', '--json'],
          cli,
        );
        expect(JSON.parse(submitted.stdout).executions.exact.data.cut_value).toBe(53);
      });

      it("npx jes-conformance passes against the server, with conformance/README.md's check of a team's own (--checks)", async () => {
        const checked = await run(
          'npx',
          [
            '--no-install',
            'jes-conformance',
            '--base-url',
            server.url,
            '--username',
            user.name,
            '--password',
            user.password,
            '--second-user',
            `${second.name}:${second.password}`,
            '--webhook-listen',
            `127.0.0.1:${await freePort()}`,
            '--checks',
            './team-checks.mjs',
          ],
          { cwd: project, env: userEnv, timeoutMs: 300_000 },
        );
        expect(checked.stdout, checked.stdout + checked.stderr).toMatch(/\b\d+ passed, 0 failed, 0 skipped\s*$/);
        expect(checked.stdout).toMatch(/^passed +listed_jobs_readable \[listJobs, getJob\] \(/m);
        expect(checked.code).toBe(0);
      }, 300_000);

      // Deployments sit behind gateways (issue 32): TLS with a CA of their own that asks for a client certificate.
      it('npx jes-conformance reaches the server behind TLS with a CA of its own and a client certificate', async () => {
        const certificates = await makeCertificates();
        const tls = await startTlsProxy(server.url, certificates, { clientCertificate: true });
        try {
          const { ca, client } = certificates;
          const checked = await run(
            'npx',
            [
              ...['--no-install', 'jes-conformance', '--base-url', tls.url, '--only', 'missing_auth,ignored_auth'],
              ...['--username', user.name, '--password', user.password],
              ...['--ca-file', ca.certFile, '--cert', client.certFile, '--key', client.keyFile],
            ],
            { cwd: project, env: userEnv },
          );
          expect(checked.stdout, checked.stdout + checked.stderr).toMatch(/^2 passed, 0 failed, 0 skipped\s*$/m);
          expect(checked.code).toBe(0);
        } finally {
          await tls.close();
        }
      });

      // On this Node only: the sandbox's run on the older Node adds half a minute to npm test for what the server's
      // run there and this one cover already.
      it.skipIf(node !== process.execPath)(
        'npx jes-sandbox keeps state as a deployment does: jes-conformance passes against it, the full profile, every check run',
        async () => {
          // At its default speed (10): faster, the jobs the suite cancels or whose data file it deletes while they run
          // (a minute's time limit) have ended before it gets there (--speed 100 fails lifecycle so).
          const sandbox = await serve('npx', ['--no-install', 'jes-sandbox', '--port', '0', '--seed', '1'], {
            cwd: project,
            env: userEnv,
            ready: listening,
          });
          try {
            const checked = await run(
              'npx',
              [
                '--no-install',
                'jes-conformance',
                '--base-url',
                sandbox.url,
                '--username',
                'anyone',
                '--password',
                'anything',
                '--second-user',
                'someone-else:other',
                '--webhook-listen',
                `127.0.0.1:${await freePort()}`,
              ],
              { cwd: project, env: userEnv, timeoutMs: 300_000 },
            );
            expect(checked.stdout, checked.stdout + checked.stderr).toMatch(/\b\d+ passed, 0 failed, 0 skipped\s*$/);
            expect(checked.code).toBe(0);
          } finally {
            await sandbox.stop();
          }
        },
        300_000,
      );
    },
  );

  it.skipIf(!oldNode)(
    `on Node 20 (${oldNode?.name ?? 'not here'}) each command says in one line which Node it needs, and exits 1`,
    async () => {
      const version = (await succeed(oldNode!.node, ['--version'], { cwd: project })).stdout.trim();
      for (const bin of bins) {
        const ran = await run('npx', ['--no-install', bin, '--help'], { cwd: project, env: oldNode!.env });
        expect(
          ran.stderr.split('\n').filter((line) => line && !line.startsWith('npm ')),
          bin,
        ).toEqual([
          `${bin} needs Node.js 22 or newer; you have ${version} — install a newer one (https://nodejs.org), or run this once with npx -p node@22 ${bin}`,
        ]);
        expect([ran.code, ran.stdout], bin).toEqual([1, '']);
      }
    },
  );

  describe('a page bundling @jes/client, in Chromium, against the server on another origin', () => {
    const missing = chromiumMissing('the packaged client in a browser');
    let pages: Server;
    let origin: string;
    let open: Serving;
    let closed: Serving;
    let browser: Browser;
    let bundled: string[];

    beforeAll(async () => {
      if (missing) return;
      const result = await build({
        entryPoints: [join(project, 'page.mjs')],
        outfile: join(project, 'page.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        metafile: true,
        logLevel: 'silent',
      });
      bundled = Object.keys(result.metafile.inputs);
      pages = createServer((req, res) => {
        const file = new URL(req.url ?? '/', 'http://page').pathname.slice(1);
        if (file !== 'page.html' && file !== 'page.js') return void res.writeHead(404).end();
        res
          .writeHead(200, { 'Content-Type': file.endsWith('.js') ? 'text/javascript' : 'text/html' })
          .end(readFileSync(join(project, file)));
      });
      await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
      const start = (corsOrigins: string, name: string) =>
        serve('npx', ['--no-install', 'jes-server'], {
          cwd: project,
          ready: listening,
          env: {
            ...process.env,
            PORT: '0',
            JES_DATA_DIR: join(dir, name),
            JES_USERS: `${user.name}:${user.password}`,
            JES_WORKERS: '1',
            JES_CORS_ORIGINS: corsOrigins,
          },
        });
      [open, closed] = await Promise.all([
        start(origin, 'browser-open'),
        start('https://elsewhere.example', 'browser-closed'),
      ]);
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await Promise.all([open?.stop(), closed?.stop()]);
      pages?.close();
    });

    const visit = async (api: string) => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(
        `${origin}/page.html?${new URLSearchParams({ api, username: user.name, password: user.password })}`,
      );
      await page.waitForFunction(
        () =>
          document.getElementById('cut')?.textContent !== '…' || document.getElementById('problem')?.textContent !== '',
        undefined,
        { timeout: 30_000 },
      );
      const read = (id: string) => page.locator(`#${id}`).textContent();
      const seen = { cut: await read('cut'), job: await read('job'), problem: await read('problem'), errors };
      await page.close();
      return seen;
    };

    // The event streams take eventsource-parser and two constants of @jes/contract's main entry; verifyWebhook
    // (standardwebhooks) is an entry of its own, which a page does not import.
    it.skipIf(missing)(
      'the bundle holds the client, openapi-fetch, eventsource-parser and @jes/contract only (no commander, no standardwebhooks, nothing of Node)',
      () => {
        expect(
          bundled
            .filter((file) => file.includes('node_modules/'))
            .map((file) => file.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1'))
            .sort()
            .filter((n, i, all) => all.indexOf(n) === i),
        ).toEqual(['@jes/client', '@jes/contract', 'eventsource-parser', 'openapi-fetch']);
      },
    );

    it.skipIf(missing)(
      "logs in, starts the example job and shows the cut 53 when the server lets the page's origin in",
      async () => {
        const seen = await visit(open.url);
        expect(seen).toEqual({ cut: '53', job: expect.stringMatching(/^[0-9A-Z]{12}$/), problem: '', errors: [] });
      },
    );

    it.skipIf(missing)(
      'gets no further than a connection failure from a server that lets another origin in',
      async () => {
        const seen = await visit(closed.url);
        expect(seen.cut).toBe('…');
        expect(seen.problem).toMatch(/connection_failed|fetch/i);
      },
    );
  });
});
