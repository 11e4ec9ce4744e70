// The Node version check in front of every command (each package's bin/launch.js, from scripts/launch.js), in a
// clone of the repository: on this Node the commands run (`npm start`, `npm run sandbox` and `npm run conformance`
// run the bins); on an older Node (the machine's own, such as Debian's /usr/bin/node, or JES_OLD_NODE) each prints
// one line naming the Node needed and how to get it, and exits 1, where the sources alone failed with
// ERR_UNKNOWN_FILE_EXTENSION; and each, its output closed after help or version (`jes --help | head -1`), exits
// quietly with 0. Installed from the packed tarballs, the same check is tried by test/packages.
// Skipped, with the reason printed, without an older Node.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { followsContract } from '../../scripts/package-versions.ts';
import { runWithClosedOutput } from '../support/closed-pipe.ts';

const root = join(import.meta.dirname, '..', '..');
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const needed = Number(/\d+/.exec(rootPackage.engines.node)![0]);
const major = (node: string) => Number(/^v(\d+)/.exec(execFileSync(node, ['--version'], { encoding: 'utf8' }))![1]);

/** The first older Node found: JES_OLD_NODE, else the system's. */
const candidates = [process.env.JES_OLD_NODE, '/usr/bin/node', '/usr/local/bin/node'].filter(
  (p): p is string => !!p && existsSync(p),
);
const oldNode = candidates.find((node) => major(node) < needed);
if (!oldNode)
  console.warn(
    `launch: skipping the older-Node runs: none of ${candidates.join(', ') || 'JES_OLD_NODE, /usr/bin/node, /usr/local/bin/node'} is older than Node ${needed} (set JES_OLD_NODE to one).`,
  );

/** Runs a command to its end; a non-zero exit is a result, not an error. */
async function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const done = await promisify(execFile)(file, args, { cwd: root, env, timeout: 60_000 }).catch(
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { code: 'code' in done ? done.code : 0, stdout: done.stdout, stderr: done.stderr };
}

const bins = [
  'server/bin/jes-server.js',
  'client/bin/jes.js',
  'conformance/bin/jes-conformance.js',
  'sandbox/bin/jes-sandbox.js',
];
const commandOf = (bin: string) => /([\w-]+)\.js$/.exec(bin)![1]!;

describe('the commands in a clone', () => {
  it(`run on this Node (${process.version}), print the packages' version, and npm run conformance runs its bin`, async () => {
    // The one version of the packages, which carries the contract's major.minor (scripts/package-versions.ts).
    const { version } = rootPackage;
    expect(followsContract(version, parse(readFileSync(join(root, 'openapi.yaml'), 'utf8')).info.version)).toBe(true);
    for (const bin of bins) {
      expect(await run(process.execPath, [bin, '--version']), bin).toEqual({
        code: 0,
        stdout: `${version}\n`,
        stderr: '',
      });
    }
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
    const conformance = await run('npm', ['run', '--silent', 'conformance', '--', '--help'], {
      ...process.env,
      PATH: path,
    });
    expect(conformance.code).toBe(0);
    expect(conformance.stdout).toMatch(/^Usage: jes-conformance/);
  });

  // `jes --help | head -1`: the reader closes the pipe before the command has written.
  it.each(bins.flatMap((bin) => ['--help', '--version'].map((option) => [bin, option])))(
    '%s exits quietly with 0 when the output of %s is closed',
    async (bin, option) => {
      expect(await runWithClosedOutput([bin, option], root)).toEqual({ code: 0, stderr: '' });
    },
  );

  describe.skipIf(!oldNode)(`on an older Node (${oldNode ?? 'none here'})`, () => {
    const version = oldNode ? execFileSync(oldNode, ['--version'], { encoding: 'utf8' }).trim() : '';
    const line = (command: string) =>
      `${command} needs Node.js ${needed} or newer; you have ${version} — see README (Node ${needed} without nvm: ` +
      `npm install --prefix ~/.cache/jes/node${needed} node@${needed} && export PATH=~/.cache/jes/node${needed}/node_modules/.bin:$PATH)`;

    it('each prints one line naming the Node needed, the Node it has and how to get it, and exits 1', async () => {
      for (const bin of bins) {
        expect(await run(oldNode!, [bin, '--help']), bin).toEqual({
          code: 1,
          stdout: '',
          stderr: `${line(commandOf(bin))}\n`,
        });
      }
    });

    for (const [script, command] of [
      [['start'], 'jes-server'],
      [['run', 'sandbox'], 'jes-sandbox'],
      [['run', 'conformance', '--', '--help'], 'jes-conformance'],
    ] as const) {
      it(`npm ${script.join(' ')} stops at that line instead of ERR_UNKNOWN_FILE_EXTENSION`, async () => {
        // The older Node's directory first, so that npm and the script's `node` are the older ones.
        const path = `${dirname(oldNode!)}:${process.env.PATH ?? ''}`;
        const result = await run('npm', [...script], { ...process.env, PATH: path });
        expect(result.code).toBe(1);
        // npm may add its own warnings (`npm warn …`); everything else is the check's one line.
        expect(result.stderr.split('\n').filter((l) => l && !l.startsWith('npm '))).toEqual([line(command)]);
        expect(result.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
      });
    }
  });
});
