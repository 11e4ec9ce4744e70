// Runs before the root scripts that start our TypeScript directly (`npm start`, `npm run sandbox`,
// `npm run conformance`): an older Node would fail on the first `.ts` file with ERR_UNKNOWN_FILE_EXTENSION;
// this says in one line what is needed instead. Plain JavaScript that Node 14 already runs, without types.
import { readFileSync } from 'node:fs';

const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node; // ">=24"
const needed = Number(/\d+/.exec(engines)[0]);
const major = Number(process.versions.node.split('.')[0]);
if (major < needed) {
  console.error(
    `jes needs Node.js ${needed} or newer; you have ${process.version} — see README (Node ${needed} without nvm: ` +
      `npm install --prefix ~/.cache/jes/node${needed} node@${needed} && export PATH=~/.cache/jes/node${needed}/node_modules/.bin:$PATH)`,
  );
  process.exit(1);
}
