// deploy/Dockerfile as far as a machine without Docker can check it: parsed by dockerfile-ast and linted by
// dockerfile-utils (the parser and linter behind the Docker language server), then held to the rules that matter
// here: the official Node image at a pinned major, no ADD (never a URL fetched at build time), the packed
// @jes/server installed with its @jes dependencies' tarballs and --omit=dev, a non-root USER before the process
// starts, exec-form ENTRYPOINT jes-server and CMD (so SIGTERM reaches jes-server, which drains on it), and the port
// it listens on exposed. Each rule is also run on a broken copy, where it must fail. Building and running the image
// is not checked: no Docker daemon runs on this machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, type Instruction, type JSONInstruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/child-server.ts';
import { imageEnvironment } from './image.ts';

const text = readFileSync(join(repoRoot, 'deploy/Dockerfile'), 'utf8');
const server = JSON.parse(readFileSync(join(repoRoot, 'server/package.json'), 'utf8')) as {
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};
/** The tarballs the image must install: @jes/server's and each @jes package it depends on. */
const tarballs = ['server', ...Object.keys(server.dependencies).filter((d) => d.startsWith('@jes/'))].map(
  (name) => `jes-${name.replace(/^@jes\//, '')}`,
);

/** What is wrong with the Dockerfile `source`, a line each (empty: nothing). */
function problems(source: string): string[] {
  const found = validate(source).map((d) => `lint, line ${d.range.start.line + 1}: ${d.message}`);
  const dockerfile = DockerfileParser.parse(source);
  const instructions = dockerfile.getInstructions();
  const froms = dockerfile.getFROMs();
  if (froms.length === 0) return [...found, 'no FROM'];
  // The last stage is the image that runs.
  const final = instructions.slice(instructions.lastIndexOf(froms.at(-1)!));
  const all = (name: string, among: Instruction[] = instructions) => among.filter((i) => i.getKeyword() === name);

  for (const from of froms)
    if (from.getImageName() !== 'node' || !/^24(-|$)/.test(from.getImageTag() ?? ''))
      found.push(`FROM ${from.getArgumentsContent()}: not the official node image at major 24`);
  for (const add of all('ADD')) found.push(`ADD ${add.getArgumentsContent()}: use COPY (ADD fetches URLs)`);

  const install = all('RUN')
    .map((i) => i.getArgumentsContent() ?? '')
    .find((run) => /\bnpm (install|ci)\b/.test(run));
  if (!install) found.push('no npm install or npm ci');
  else {
    if (!/ --omit=dev\b/.test(install)) found.push('npm installs dev dependencies (no --omit=dev)');
    for (const tarball of tarballs)
      if (!new RegExp(`/${tarball}-\\*\\.tgz\\b`).test(install)) found.push(`${tarball}-*.tgz not installed`);
  }

  const user = all('USER', final).at(-1);
  const start = final.findIndex((i) => ['ENTRYPOINT', 'CMD'].includes(i.getKeyword()));
  if (!user || /^(root|0)(:|$)/.test(user.getArgumentsContent() ?? '')) found.push('runs as root');
  else if (final.indexOf(user) > start) found.push('USER comes after ENTRYPOINT or CMD');

  const exec = (name: string, expected: string[]) => {
    const [instruction, ...more] = all(name, final) as JSONInstruction[];
    if (!instruction || more.length) return void found.push(`not one ${name}`);
    // Exec form: a JSON array, so no shell stands between the signal and the process.
    if (!/^\[.*\]$/s.test(instruction.getArgumentsContent() ?? ''))
      return void found.push(`${name} in shell form: SIGTERM would reach a shell, not jes-server`);
    const words = instruction.getJSONStrings().map((s) => s.getJSONValue());
    if (words.join(' ') !== expected.join(' '))
      found.push(`${name} ${JSON.stringify(words)}, not ${JSON.stringify(expected)}`);
  };
  exec('ENTRYPOINT', ['jes-server']);
  exec('CMD', ['serve']);

  const port = imageEnvironment(source).PORT;
  if (
    all('EXPOSE', final)
      .map((i) => i.getArgumentsContent())
      .join() !== port
  )
    found.push(`EXPOSE is not PORT (${port})`);
  return found;
}

/** deploy/Dockerfile with `from` (a whole line, or a part of one) replaced by `to`. */
function broken(from: string | RegExp, to: string): string {
  const copy = text.replace(from, to);
  if (copy === text) throw new Error(`deploy/Dockerfile has no ${from}: the broken copy breaks nothing`);
  return copy;
}

describe('deploy/Dockerfile', () => {
  it('parses, lints clean and keeps every rule', () => {
    expect(problems(text)).toEqual([]);
    expect(DockerfileParser.parse(text).getInstructions().length).toBeGreaterThan(10);
    expect(tarballs).toEqual(['jes-server', 'jes-contract']);
    expect(Object.keys(server.bin)).toContain('jes-server');
    // What the image sets for jes-server: every interface, the port it exposes.
    expect(imageEnvironment()).toMatchObject({ HOST: '0.0.0.0', PORT: '3000', NODE_ENV: 'production' });
  });

  it.each([
    ['an unknown instruction', /^WORKDIR \/app$/m, 'WORKDIRR /app', /^lint, line \d+: Unknown instruction: WORKDIRR$/],
    [
      'another base image',
      'FROM node:24-slim AS install',
      'FROM debian:13 AS install',
      /^FROM debian:13 AS install: not/,
    ],
    ['an unpinned major', /^FROM node:24-slim$/m, 'FROM node:slim', /^FROM node:slim: not/],
    [
      'an ADD of a URL',
      /^WORKDIR \/app$/m,
      'WORKDIR /app\nADD https://example.com/x.tgz /tmp/',
      /^ADD https:.*: use COPY/,
    ],
    ['dev dependencies', /^RUN npm install --omit=dev/m, 'RUN npm install', /no --omit=dev/],
    ['the contract left out', ' /tmp/packages/jes-contract-*.tgz', '', /^jes-contract-\*\.tgz not installed$/],
    ['root', /^USER node$/m, 'USER root', /^runs as root$/],
    ['no USER', /^USER node$/m, '', /^runs as root$/],
    ['a shell-form ENTRYPOINT', 'ENTRYPOINT ["jes-server"]', 'ENTRYPOINT jes-server', /^ENTRYPOINT in shell form/],
    ['a shell-form CMD', 'CMD ["serve"]', 'CMD serve', /^CMD in shell form/],
    ['another command', 'CMD ["serve"]', 'CMD ["worker"]', /^CMD \["worker"\], not \["serve"\]$/],
    ['another port exposed', /^EXPOSE 3000$/m, 'EXPOSE 8080', /^EXPOSE is not PORT \(3000\)$/],
  ])('fails on a copy with %s', (_what, from, to, problem) => {
    const found = problems(broken(from, to));
    expect(
      found.some((line) => problem.test(line)),
      found.join('\n'),
    ).toBe(true);
  });
});
