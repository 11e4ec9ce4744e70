// Files the server reads from the repository: the contract and the generated reference.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const contractPath = join(repository, 'openapi.yaml');
export const docsPath = join(repository, 'docs', 'index.html');
