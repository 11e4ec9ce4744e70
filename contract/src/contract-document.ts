// openapi.yaml as data, read one way for every package that reads it (the server's routing and use-case records,
// the conformance suite, the sandbox's Prism). Two folders up from this file is the repository's root in a clone
// (contract/src/) and the package's root installed (dist/src/), where the package's build put its copy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';

/** The contract this package carries (the repository's own in a clone). */
export const contractPath = join(import.meta.dirname, '..', '..', 'openapi.yaml');

/** What every reader of the document relies on; the rest is reached through it as plain data. */
export interface ContractDocument {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    examples: Record<string, { value: unknown }>;
    responses?: Record<string, unknown>;
  };
  [member: string]: unknown;
}

/** The contract at `path` (this package's by default), parsed. */
export function readContract(path: string = contractPath): ContractDocument {
  return parseContract(readFileSync(path, 'utf8'));
}

/**
 * A contract's text (openapi.yaml's), parsed: for a reader that has read the file itself. YAML 1.2's core schema
 * (no timestamps, no YAML 1.1 booleans), as the `yaml` package read it before: the same document for openapi.yaml,
 * in a tenth of its time (0.3 s of a core at every process's start, a server's, the sandbox's, the suite's).
 */
export function parseContract(text: string): ContractDocument {
  return load(text, { schema: CORE_SCHEMA }) as ContractDocument;
}

let carried: ContractDocument | undefined;

/** The contract this package carries, read once for the whole process. */
export const carriedContract = (): ContractDocument => (carried ??= readContract());
