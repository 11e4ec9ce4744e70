// The breaking-change gate (scripts/contract-diff.ts, run by npm run lint through scripts/contract-gate.ts): each
// rule catches a change of openapi.yaml that breaks clients or servers of the version before, and lets the changes
// that do not break anything through; the gate asks a version that covers what it found.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareContracts } from '../../scripts/contract-diff.ts';
import { gate } from '../../scripts/contract-gate.ts';
import { releasedVersions } from '../../scripts/releases.ts';
import { loadContract, type Node } from './openapi-document.ts';

const base = loadContract();
const changed = (mutate: (doc: Node) => void) => {
  const doc = structuredClone(base);
  mutate(doc);
  return compareContracts(base, doc);
};
const rules = (mutate: (doc: Node) => void) =>
  changed(mutate)
    .filter((d) => d.level === 'breaking')
    .map((d) => d.rule);

const job = (d: Node) => d.components.schemas.Job;

describe('the breaking changes it catches', () => {
  it.each<[string, (d: Node) => void]>([
    ['path-removed', (d) => delete d.paths['/healthz']],
    ['operation-removed', (d) => delete d.paths['/job/{job_id}'].delete],
    ['request-parameter-removed', (d) => d.paths['/job'].get.parameters.shift()],
    ['request-parameter-became-required', (d) => (d.components.parameters.Limit.required = true)],
    [
      'request-parameter-added-required',
      (d) =>
        d.paths['/job/{job_id}'].get.parameters.push({
          name: 'X-Tenant',
          in: 'header',
          required: true,
          schema: { type: 'string' },
        }),
    ],
    ['request-property-became-required', (d) => d.components.schemas.DataFileJobRequest.required.push('solvers')],
    ['request-type-narrowed', (d) => (d.components.schemas.TimeLimitSeconds.type = 'integer')],
    ['request-enum-value-removed', (d) => d.components.schemas.JobStatus.enum.pop()],
    ['request-maxLength-narrowed', (d) => (d.components.parameters.IdempotencyKey.schema.maxLength = 300)],
    ['request-minimum-narrowed', (d) => (d.components.parameters.Limit.schema.minimum = 2)],
    ['response-property-removed', (d) => delete job(d).properties.problem_id],
    [
      'response-property-became-optional',
      (d) => (job(d).required = job(d).required.filter((r: string) => r !== 'status')),
    ],
    ['response-enum-value-added', (d) => d.components.schemas.JobStatus.enum.push('PAUSED')],
    ['response-type-widened', (d) => (job(d).properties.problem_id = { type: ['string', 'null'], description: 'x' })],
    ['response-status-removed', (d) => delete d.paths['/job/{job_id}'].get.responses['404']],
    [
      'response-media-type-removed',
      (d) => {
        const ok = d.paths['/healthz'].get.responses['200'];
        ok.content = { 'application/x-json': ok.content['application/json'] };
      },
    ],
    [
      'request-media-type-removed',
      (d) => {
        const body = d.paths['/login'].post.requestBody;
        body.content = { 'text/plain': body.content['application/json'] };
      },
    ],
    ['security-added', (d) => (d.paths['/login'].post.security = [{ bearerAuth: [] }])],
    ['request-format-changed', (d) => (d.components.schemas.JobId.format = 'uuid')],
    [
      'request-oneOf-alternative-removed',
      (d) => d.paths['/problem/maxcut'].post.requestBody.content['application/json'].schema.oneOf.pop(),
    ],
  ])('%s', (rule, mutate) => {
    expect(rules(mutate)).toContain(rule);
  });
});

describe('the changes it lets through', () => {
  it.each<[string, (d: Node) => void]>([
    [
      'an optional request member',
      (d) => (d.components.schemas.LoginRequest.properties.otp = { type: 'string', description: 'x' }),
    ],
    ['a response member', (d) => (job(d).properties.note = { type: 'string', description: 'x' })],
    ['a new operation', (d) => (d.paths['/job/{job_id}'].put = structuredClone(d.paths['/job/{job_id}'].get))],
    [
      'an optional query parameter',
      (d) =>
        d.paths['/job'].get.parameters.push({ name: 'q', in: 'query', required: false, schema: { type: 'string' } }),
    ],
    ['a request bound widened', (d) => (d.components.parameters.Limit.schema.maximum = 200)],
    [
      'a problem code added to an extensible enum',
      (d) =>
        d.paths['/data_file'].post.responses['413'].content[
          'application/problem+json'
        ].schema.allOf[1].properties.code.enum.push('new_code'),
    ],
    [
      'a response status added',
      (d) => (d.paths['/job/{job_id}'].get.responses['418'] = d.components.responses.BadRequest),
    ],
    ['a description rewritten', (d) => (d.info.description = 'another text')],
  ])('%s', (_what, mutate) => {
    expect(rules(mutate)).toEqual([]);
    expect(changed(mutate).length).toBeGreaterThanOrEqual(0);
  });
});

describe('what it tells of a change (the changelog quotes it)', () => {
  const outputs = (d: Node) => d.components.schemas.JobOutput.properties.outputs.additionalProperties.oneOf;

  it('names a member by the schema that holds it, and a parameter by the operations that take it', () => {
    expect(changed((d) => (job(d).properties.note = { type: 'string', description: 'x' }))).toEqual([
      expect.objectContaining({ rule: 'response-property-added', subject: '`Job.note`', detail: 'a new member' }),
    ]);
    const limit = changed((d) => (d.components.parameters.Limit.schema.maximum = 200));
    expect(limit.length).toBeGreaterThan(0);
    for (const difference of limit)
      expect(difference).toMatchObject({
        rule: 'request-maximum-changed',
        operation: expect.stringMatching(/^GET /),
        subject: 'the query parameter `limit`',
        detail: 'at most 200 now (was 100)',
      });
  });

  // 1.5.0 made an execution's `data` a choice of MaxCutOutput and QuboOutput: the diff said MaxCutOutput's six
  // members were "no longer sent", and that the `null` alternative of an output, moved from [1] to [2], was a new one.
  it('compares a schema that becomes a choice as a choice of itself alone: one alternative more, no member lost', () => {
    const widened = changed((d) => {
      const ok = d.paths['/healthz'].get.responses['200'].content['application/json'];
      ok.schema = { oneOf: [ok.schema, { $ref: '#/components/schemas/Problem' }] };
    });
    expect(widened).toEqual([
      expect.objectContaining({
        level: 'breaking',
        rule: 'response-oneOf-alternative-added',
        subject: 'the 200 answer',
        detail: 'may now be `Problem`',
      }),
    ]);
  });

  it('matches an inline alternative by its type wherever it moves in the list', () => {
    const moved = changed((d) => outputs(d).unshift({ $ref: '#/components/schemas/Problem' }));
    expect(moved.map((d) => [d.rule, d.subject, d.detail])).toEqual([
      ['response-oneOf-alternative-added', '`JobOutput.outputs.*`', 'may now be `Problem`'],
    ]);
  });
});

describe('the gate', () => {
  const latest = releasedVersions().at(-1)!;
  const withVersion = (version: string, mutate: (d: Node) => void = () => {}) => {
    const doc = structuredClone(base);
    mutate(doc);
    doc.info.version = version;
    return doc;
  };

  it('passes openapi.yaml as it is against the last release', () => {
    expect(gate(latest, base).passed).toBe(true);
  });

  it('asks a version above the release for any change, and a new major one for a breaking change', () => {
    const [major, minor] = latest.split('.').map(Number) as [number, number];
    const breakIt = (d: Node) => delete d.paths['/healthz'];
    expect(
      gate(
        latest,
        withVersion(latest, (d) => (d.info.description = 'x')),
      ).passed,
    ).toBe(false);
    expect(gate(latest, withVersion(`${major}.${minor + 1}.0`, breakIt)).passed).toBe(false);
    expect(gate(latest, withVersion(`${major + 1}.0.0`, breakIt)).passed).toBe(true);
  });

  it('keeps one release per version, the last one older than openapi.yaml', () => {
    expect(releasedVersions().slice(0, 2)).toEqual(['1.0.0', '1.1.0']);
    expect(latest).not.toBe(base.info.version);
  });
});

describe('in a commit', () => {
  const root = join(import.meta.dirname, '../..');
  const inGit = spawnSync('git', ['rev-parse', '--git-dir'], { cwd: root }).status === 0;
  if (!inGit) console.warn('skipping the throwaway-branch run of the gate: not in a git checkout');

  it.skipIf(!inGit)(
    'fails a branch whose commit removes an operation, and passes the same branch with a new major version',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'jes-gate-'));
      const branch = `gate-probe-${process.pid}-${Date.now().toString(36)}`;
      try {
        execFileSync('git', ['worktree', 'add', '-q', '-b', branch, join(dir, 'tree'), 'HEAD'], {
          cwd: root,
          stdio: 'pipe',
        });
        const tree = join(dir, 'tree');
        mkdirSync(join(tree, 'contract'), { recursive: true });
        cpSync(join(root, 'contract/releases'), join(tree, 'contract/releases'), { recursive: true });
        const contract = join(tree, 'openapi.yaml');
        const removed = readFileSync(contract, 'utf8').replace(/\n {2}\/healthz:\n(?: {4}.*\n)+/, '\n');
        writeFileSync(contract, removed);
        execFileSync(
          'git',
          ['-c', 'user.name=gate', '-c', 'user.email=gate@example.org', 'commit', '-qam', 'remove /healthz'],
          {
            cwd: tree,
            stdio: 'pipe',
          },
        );
        // This checkout's gate (the branch is cut from the last commit, which may not hold it yet) on the branch's files.
        const gateScript = join(root, 'scripts/contract-gate.ts');
        const run = spawnSync(process.execPath, [gateScript], { cwd: tree, encoding: 'utf8' });
        expect(run.status, run.stdout + run.stderr).toBe(1);
        expect(run.stderr).toMatch(/breaking \(path-removed\) \/healthz/);
        expect(run.stderr).toMatch(/need a new major version/);
        writeFileSync(contract, removed.replace(/^ {2}version: .*$/m, '  version: 2.0.0'));
        expect(spawnSync(process.execPath, [gateScript], { cwd: tree }).status).toBe(0);
      } finally {
        spawnSync('git', ['worktree', 'remove', '--force', join(dir, 'tree')], { cwd: root });
        spawnSync('git', ['branch', '-D', branch], { cwd: root });
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
