// The server as `npm i @jes/server` gets it, for `node bench/api.ts --installed`: the workspaces packed and the
// server's tarball installed into a fresh project outside the repository, with the helpers of the packages test
// (test/packages/support/consumer.ts). What is installed is the packed dist/ and the registry's dependencies, not
// this clone's node_modules.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { installConsumer, packAll } from '../../test/packages/support/consumer.ts';

export interface Installed {
  /** The installed package's `jes-server` command (bin/jes-server.js, which runs its dist/). */
  script: string;
  remove(): void;
}

export async function installServer(): Promise<Installed> {
  const dir = mkdtempSync(join(tmpdir(), 'jes-bench-installed-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const server = (await packAll(join(dir, 'tarballs'))).filter((t) => basename(t.file).startsWith('jes-server-'));
    await installConsumer(join(dir, 'project'), server, []);
    return { script: join(dir, 'project', 'node_modules', '@jes', 'server', 'bin', 'jes-server.js'), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
