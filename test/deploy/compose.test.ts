// deploy/compose.yaml, checked without Docker (no daemon runs here, and the docker CLI has no compose plugin): valid
// against the Compose Specification's own JSON Schema (vendored, see README.md beside this file); every setting it
// gives jes-server one that config.ts reads and accepts; its secrets taken from the environment, never written in;
// the stop grace longer than the drain. Then its jes services are started as what they are, without containers:
// each service's command after the image's ENTRYPOINT (jes-server, here the repository's), with the image's ENV and
// the service's environment, as many replicas as it says, on a fresh PostgreSQL at 127.0.0.1 instead of the
// `postgres` service; the APIs' own healthcheck command must pass, and a job started on one API, solved by a worker,
// is read back on the other.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/src/config/config.ts';
import { settings } from '../../server/src/config/settings.ts';
import { Client, freshPostgres, jwtSecret, sixNodes, users } from '../../server/test/support/server.ts';
import { type ChildServer, repoRoot, startChild } from '../support/child-server.ts';
import { usersSetting } from '../support/users-setting.ts';
import { composeFile, imageEnvironment, interpolate, type Service } from './image.ts';

const compose = composeFile();
/** The services built from deploy/Dockerfile: jes-server's. */
const ours = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
/** What `docker compose up` would be given in its environment (an .env file or the shell). */
const secrets = { POSTGRES_PASSWORD: 'composepassword1', JES_JWT_SECRET: jwtSecret, JES_USERS: usersSetting(users) };

/** A service's environment as its container has it: the image's ENV, then the service's, interpolated. */
function containerEnv(service: Service, variables: Record<string, string>): Record<string, string> {
  const image = imageEnvironment();
  delete image.PATH;
  const own = Object.entries(service.environment ?? {}).map(([name, value]) => [
    name,
    interpolate(String(value), variables),
  ]);
  return { ...image, ...Object.fromEntries(own) };
}

describe('deploy/compose.yaml', () => {
  it('is valid against the Compose Specification', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, 'compose-spec.json'), 'utf8'));
    // Its $schema names draft-07 by an https URL: Ajv's draft-07 meta-schema under that name too.
    const draft07 = JSON.parse(
      readFileSync(join(repoRoot, 'node_modules/ajv/dist/refs/json-schema-draft-07.json'), 'utf8'),
    );
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false });
    ajv.addMetaSchema({ ...draft07, $id: schema.$schema });
    const valid = ajv.compile(schema);
    expect(valid(compose), JSON.stringify(valid.errors, null, 2)).toBe(true);
    // And the schema refuses what compose refuses: a misspelt key, a grace period as a bare number.
    const broken = structuredClone(compose);
    Object.assign(broken.services.api!, { stop_grace_periode: '30s' });
    expect(valid(broken)).toBe(false);
  });

  it('gives jes-server only settings it reads, each accepted, and its secrets only from the environment', () => {
    expect(ours.map(([name]) => name).sort()).toEqual(['api', 'worker']);
    const known = new Set([...settings.map((s) => s.name), 'NODE_OPTIONS', 'NODE_ENV']);
    for (const [name, service] of ours) {
      const env = containerEnv(service, secrets);
      for (const variable of Object.keys(env))
        expect(known.has(variable) || variable.startsWith('OTEL_'), `${name}: ${variable}`).toBe(true);
      expect(() => readConfig(env), name).not.toThrow();
      // Secrets: interpolated from the environment, and refused when it lacks them.
      for (const secret of ['JES_JWT_SECRET', 'JES_USERS', 'DATABASE_URL'])
        expect(String(service.environment?.[secret]), `${name}: ${secret}`).toMatch(/\$\{[A-Z_]+:\?[^}]*\}/);
      expect(() => containerEnv(service, {})).toThrow(/compose would refuse to start/);
      // The stop grace outlasts the drain and the close after it.
      const grace = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '10s')![1]);
      expect(grace, name).toBeGreaterThanOrEqual(readConfig(env).drainSeconds + 10);
    }
  });
});

const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the compose services run without containers: ${database.skip}`);

describe.skipIf('skip' in database)("compose.yaml's jes services, run without containers", () => {
  const children: ChildServer[] = [];
  afterAll(async () => {
    await Promise.all(children.map((child) => child.kill()));
    await (database as { drop?: () => Promise<void> }).drop?.();
  });

  it('the APIs become ready and healthy, and a job started on one is solved by a worker and read on the other', async () => {
    const url = (database as { url: string }).url;
    const started = await Promise.all(
      ours.flatMap(([name, service]) => {
        const env = {
          ...containerEnv(service, secrets),
          // What a container has to itself, shared here: the database's address, the ports.
          DATABASE_URL: url,
          HOST: '127.0.0.1',
          PORT: '0',
          ...(service.environment?.JES_METRICS_PORT ? { JES_METRICS_PORT: '0' } : {}),
          LOG_LEVEL: 'warn',
        };
        const command = [process.execPath, join(repoRoot, 'server/bin/jes-server.js'), ...(service.command ?? [])];
        return Array.from({ length: service.deploy?.replicas ?? 1 }, () =>
          startChild(command, {
            env,
            what: `compose service ${name}`,
            ready: /(?:listening on|metrics at) (http:\/\/[^/\s]+)/,
          }).then((child) => ({ name, service, env, child })),
        );
      }),
    );
    children.push(...started.map((s) => s.child));
    const apis = started.filter((s) => s.name === 'api');
    const workers = started.filter((s) => s.name === 'worker');
    expect([apis.length, workers.length]).toEqual([2, 2]);

    // Each process's readiness, and the healthcheck compose runs in its container, run here with the container's
    // environment and the port it printed: an API's own (PORT); a worker, which serves no API, its metrics port.
    for (const { name, child, service, env } of started) {
      const ready = await fetch(`${child.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
      const [program, ...args] = service.healthcheck!.test.slice(1) as [string, ...string[]];
      expect(program).toBe('node');
      const port = new URL(child.url).port;
      const check = spawnSync(process.execPath, args, {
        env: { ...env, ...(name === 'api' ? { PORT: port } : { JES_METRICS_PORT: port }) },
        timeout: 10_000,
      });
      expect(check.status, `${name}: ${check.stderr.toString()}`).toBe(0);
    }
    const [first, second] = await Promise.all(apis.map((api) => new Client(api.child.url).login('alice')));
    const id = await first!.start(sixNodes);
    const job = await second!.waitFor(id, 15);
    expect(job.status).toBe('FINISHED');
    expect(Object.values<any>(job.executions).map((e) => e.data.cut_value)).toEqual([53]);
    // Solved by one of the worker processes (the APIs run no solver threads).
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT worker FROM executions WHERE job_id = $1`, [id]);
      const pids = workers.map((w) => w.child.child.pid);
      expect(rows.map((r) => pids.includes(Number(String(r.worker).split(':')[1])))).toEqual([true]);
    } finally {
      await db.end();
    }
  }, 60_000);
});
