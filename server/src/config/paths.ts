// Files the server reads besides its code and the contract (@jes/contract's): the generated reference and guides
// (docs/). Three folders up from this file is the repository's root in a clone (server/src/config/) and the
// package's root installed (dist/src/config/), where the package's build put copies of them.
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');
export const docsDir = join(root, 'docs');
