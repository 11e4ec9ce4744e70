// The contract as data, read once: what the use-case record quotes from it, and the paths and methods that
// route a request before anything else is done with it.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { contractPath } from './paths.ts';

export interface ContractDocument {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; examples: Record<string, { value: unknown }> };
}

export const contract: ContractDocument = parse(readFileSync(contractPath, 'utf8'));
