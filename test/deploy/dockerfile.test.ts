// deploy/Dockerfile as far as a machine without Docker can check it: parsed by dockerfile-ast and linted by
// dockerfile-utils (the parser and linter behind the Docker language server), then held to the rules that matter
// here: the official Node image at a pinned major, no ADD (never a URL fetched at build time), the packed
// @jes/server installed with its @jes dependencies' tarballs and --omit=dev, a non-root USER before the process
// starts, exec-form ENTRYPOINT and CMD (so SIGTERM reaches jes-server, which drains on it), and the port it listens on
// exposed. Building and running the image is not checked here: no Docker daemon runs on this machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, type Env, type JSONInstruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/child-server.ts';
import { imageEnvironment } from './image.ts';

const text = readFileSync(join(repoRoot, 'deploy/Dockerfile'), 'utf8');
const dockerfile = DockerfileParser.parse(text);
const instructions = dockerfile.getInstructions();
/** The instructions of the last stage: the image that runs. */
const final = instructions.slice(instructions.lastIndexOf(dockerfile.getFROMs().at(-1)!));
const keyword = (name: string) => (i: { getKeyword(): string }) => i.getKeyword() === name;
const server = JSON.parse(readFileSync(join(repoRoot, 'server/package.json'), 'utf8')) as {
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};

describe('deploy/Dockerfile', () => {
  it('parses and lints clean', () => {
    expect(validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    expect(instructions.length).toBeGreaterThan(10);
  });

  it('builds every stage on the official Node image at a pinned major (24), and ADDs nothing', () => {
    const froms = dockerfile.getFROMs();
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) {
      expect(from.getImageName()).toBe('node');
      expect(from.getImageTag()).toMatch(/^24(-|$)/);
    }
    expect(instructions.filter(keyword('ADD')).map((i) => i.getArgumentsContent())).toEqual([]);
  });

  it('installs the packed @jes/server and each @jes package it depends on, without dev dependencies', () => {
    const install = instructions
      .filter(keyword('RUN'))
      .map((i) => i.getArgumentsContent()!)
      .find((run) => /\bnpm (install|ci)\b/.test(run));
    expect(install).toMatch(/ --omit=dev\b/);
    const ours = ['server', ...Object.keys(server.dependencies).filter((d) => d.startsWith('@jes/'))].map((name) =>
      name.replace(/^@jes\//, ''),
    );
    expect(ours).toContain('contract');
    for (const name of ours) expect(install).toMatch(new RegExp(`/jes-${name}-\\*\\.tgz\\b`));
  });

  it('runs jes-server as a user other than root, in exec form, exposing the port it listens on', () => {
    const users = final.filter(keyword('USER')).map((i) => i.getArgumentsContent());
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const start = final.findIndex((i) => ['ENTRYPOINT', 'CMD'].includes(i.getKeyword()));
    expect(final.findIndex(keyword('USER'))).toBeLessThan(start);

    const exec = (name: string) => {
      const found = final.filter(keyword(name)) as JSONInstruction[];
      expect(found, name).toHaveLength(1);
      // Exec form: a JSON array, so no shell stands between the signal and the process.
      expect(found[0]!.getArgumentsContent(), name).toMatch(/^\[.*\]$/s);
      return found[0]!.getJSONStrings().map((s) => s.getJSONValue());
    };
    expect(exec('ENTRYPOINT')).toEqual(['jes-server']);
    expect(Object.keys(server.bin)).toContain('jes-server');
    expect(exec('CMD')).toEqual(['serve']);

    const env = imageEnvironment();
    expect(env.HOST).toBe('0.0.0.0');
    expect(final.filter(keyword('EXPOSE')).map((i) => i.getArgumentsContent())).toEqual([env.PORT]);
    expect(final.filter(keyword('ENV')).length).toBeGreaterThan(0);
    expect((final.find(keyword('ENV')) as Env).getProperties().length).toBeGreaterThan(0);
  });
});
