// Starts a command of a package: in a clone of the repository its TypeScript sources as they are (Node 24 strips
// the types), installed its build (dist/). On an older Node than it needs it says so in one line, where the first
// import would have failed with a stack trace (`ERR_UNKNOWN_FILE_EXTENSION` on a source, `does not provide an
// export named …` or `Promise.withResolvers is not a function` on the build). Plain JavaScript that Node 14 runs.
// scripts/launch.js is the one source; `npm run generate` copies it to each package's bin/ (drift-checked).
import { existsSync, readFileSync } from 'node:fs';

/** The major version that package.json's `engines.node` (`>=24`) asks for. */
const neededNode = (manifest) => Number(/\d+/.exec(JSON.parse(readFileSync(manifest, 'utf8')).engines.node)[0]);

/**
 * A reader that has what it wanted (`jes --help | head -1`) closes the pipe: stop there, quietly, instead of dying
 * on an unhandled EPIPE with a stack trace. A run given one of the `informational` options (help, version) ends with
 * 0; any other ends with 141, as a shell reports a command killed by SIGPIPE, so that `set -o pipefail` does not
 * read a run that never finished as a pass.
 */
function quietOnClosedPipe(informational) {
  const code = process.argv.slice(2).some((arg) => informational.includes(arg)) ? 0 : 141;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(code);
    });
  }
}

/**
 * Runs `source` (relative to this file) where it exists, else `built`, once this Node is recent enough: the
 * repository's (its root package.json) for the sources, the package's for its build. `informational` lists the
 * command's options that only print (help, version): a closed pipe ends those with 0.
 */
export async function launch(command, source, built, informational = ['--help', '-h', '--version', '-v']) {
  const fromSource = existsSync(new URL(source, import.meta.url));
  const needed = neededNode(new URL(fromSource ? '../../package.json' : '../package.json', import.meta.url));
  const major = Number(process.versions.node.split('.')[0]);
  if (major < needed) {
    const get = fromSource
      ? `see README (Node ${needed} without nvm: npm install --prefix ~/.cache/jes/node${needed} node@${needed} && export PATH=~/.cache/jes/node${needed}/node_modules/.bin:$PATH)`
      : `install a newer one (https://nodejs.org), or run this once with npx -p node@${needed} ${command}`;
    console.error(`${command} needs Node.js ${needed} or newer; you have ${process.version} — ${get}`);
    process.exit(1);
  }
  if (fromSource) {
    // The sources import the other @jes packages by name: resolve those to their sources too, as
    // `node --conditions=jes-source` would (their `exports` name dist/ otherwise, which a clone does not build).
    const { registerHooks } = await import('node:module');
    registerHooks({
      resolve: (specifier, context, next) =>
        next(specifier, { ...context, conditions: [...(context.conditions || []), 'jes-source'] }),
    });
  }
  quietOnClosedPipe(informational);
  await import(new URL(fromSource ? source : built, import.meta.url).href);
}
