// The packages as a new user meets them (`npm run bench:packages`): each workspace packed (its size packed and
// unpacked), the four tarballs installed into an empty project outside the repository, once with npm's cache
// as it is and once with an empty cache (everything from the registry), then the start of the commands: the
// time from `npx jes-sandbox` to its "listening" line and of `npx jes-conformance --help`, the first run
// (Node's compile cache empty) and the median of the next five. Prints figures only; removes what it made.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { packAll, run, serve, succeed, type Tarball } from '../test/packages/support/consumer.ts';

const dir = mkdtempSync(join(tmpdir(), 'jes-bench-packages-'));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function install(tarballs: Tarball[], name: string, cache?: string): Promise<{ project: string; ms: number }> {
  const project = join(dir, name);
  mkdirSync(project);
  await succeed('npm', ['init', '-y'], { cwd: project });
  const args = [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...(cache ? ['--cache', cache] : []),
    ...tarballs.map((t) => t.file),
  ];
  return { project, ms: await timed(() => succeed('npm', args, { cwd: project, timeoutMs: 900_000 })) };
}

try {
  const tarballs = await packAll(join(dir, 'tarballs'));
  console.log('| Package | packed | unpacked |\n|---|---:|---:|');
  for (const tarball of tarballs) {
    const listed = await succeed('tar', ['-tvzf', tarball.file], { cwd: dir });
    const unpacked = listed.stdout
      .trim()
      .split('\n')
      .reduce((sum, line) => sum + Number(line.split(/\s+/)[2]), 0);
    console.log(
      `| ${basename(tarball.file, '.tgz')} | ${(tarball.bytes / 1024).toFixed(1)} KiB | ${(unpacked / 1024).toFixed(1)} KiB |`,
    );
  }

  const warm = await install(tarballs, 'warm');
  const cold = await install(tarballs, 'cold', join(dir, 'empty-cache'));
  console.log(
    `\ninstall of the four tarballs into an empty project: ${seconds(warm.ms)} with npm's cache, ${seconds(cold.ms)} with an empty one`,
  );

  const env = { ...process.env, HOME: join(dir, 'home') };
  const sandboxStart = () =>
    timed(async () =>
      (
        await serve('npx', ['--no-install', 'jes-sandbox', '-p', '0'], {
          cwd: warm.project,
          env,
          ready: /listening on (http:\/\/\S+)/,
        })
      ).stop(),
    );
  const conformanceHelp = () =>
    timed(() => run('npx', ['--no-install', 'jes-conformance', '--help'], { cwd: warm.project, env }));
  for (const [what, measure] of [
    ['npx jes-sandbox to listening', sandboxStart],
    ['npx jes-conformance --help', conformanceHelp],
  ] as const) {
    const first = await measure();
    const next: number[] = [];
    for (let i = 0; i < 5; i += 1) next.push(await measure());
    console.log(
      `${what}: first ${seconds(first)}, then median ${seconds(median(next))} of 5 (node ${process.version})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
