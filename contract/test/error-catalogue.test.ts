// The error catalogue held against openapi.yaml in both directions (as Fastify's errors.test.js holds lib/errors.js
// against its docs): every code the contract documents is in the catalogue with the status the contract gives it,
// every code of the catalogue is documented, and each example problem has its code's status and title.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../src/error-catalogue.ts';

interface Response {
  content?: Record<string, { schema?: Schema; examples?: Record<string, { value?: Example; $ref?: string }> }>;
}
interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: { code?: { enum?: string[] } };
}
interface Example {
  code?: string;
  status?: number;
  title?: string;
}

const doc = parse(readFileSync(join(import.meta.dirname, '..', '..', 'openapi.yaml'), 'utf8'));
const codes = new Map<string, readonly [number, string]>(Object.entries(catalogue));

/** Every error response of the contract (each operation's and the shared ones), with its status. */
function errorResponses(): { where: string; status: number; response: Response }[] {
  const found: { where: string; status: number; response: Response }[] = [];
  const resolve = (r: Response & { $ref?: string }): Response =>
    r.$ref ? doc.components.responses[r.$ref.split('/').pop()!] : r;
  for (const [path, item] of Object.entries<Record<string, { responses?: Record<string, Response> }>>(doc.paths))
    for (const [method, operation] of Object.entries(item))
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if (/^[45]\d\d$/.test(status))
          found.push({
            where: `${method.toUpperCase()} ${path} ${status}`,
            status: Number(status),
            response: resolve(response),
          });
  return found;
}

/** The codes a response lists (`code`'s enum, beside the Problem it extends). */
const listedCodes = (response: Response): string[] =>
  (response.content?.['application/problem+json']?.schema?.allOf ?? []).flatMap((s) => s.properties?.code?.enum ?? []);

/** The Problem schema's description, `code` (status) by `code`, and the codes of a job's `error` after it. */
function describedCodes(): { withStatus: Map<string, number>; all: Set<string> } {
  const text: string = doc.components.schemas.Problem.description;
  const withStatus = new Map<string, number>();
  for (const [, names, status] of text.matchAll(/((?:`[a-z_]+`(?:,| and)?\s*)+)\((\d{3})/g))
    for (const [, code] of names!.matchAll(/`([a-z_]+)`/g)) withStatus.set(code!, Number(status));
  const members = new Set([...Object.keys(doc.components.schemas.Problem.properties), 'error']);
  const all = new Set([...text.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]!).filter((c) => !members.has(c)));
  return { withStatus, all };
}

describe('the error catalogue against openapi.yaml', () => {
  it('holds every code the Problem schema documents, with the status it gives, and nothing it does not', () => {
    const { withStatus, all } = describedCodes();
    expect(withStatus.size).toBeGreaterThan(20);
    for (const [code, status] of withStatus) expect(codes.get(code)?.[0], code).toBe(status);
    expect([...all].sort()).toEqual([...codes.keys()].sort());
  });

  it("holds every code an error response lists, with that response's status", () => {
    const responses = errorResponses();
    expect(responses.length).toBeGreaterThan(40);
    for (const { where, status, response } of responses)
      for (const code of listedCodes(response)) expect(codes.get(code)?.[0], `${where}: ${code}`).toBe(status);
  });

  it('gives each example problem its status and title', () => {
    let examples = 0;
    for (const { where, response } of errorResponses())
      for (const [name, example] of Object.entries(response.content?.['application/problem+json']?.examples ?? {})) {
        const value = example.$ref ? doc.components.examples[example.$ref.split('/').pop()!].value : example.value;
        const { code, status, title } = (value ?? {}) as Example;
        examples++;
        expect([status, title], `${where} ${name}: ${code}`).toEqual(codes.get(code ?? ''));
      }
    expect(examples).toBeGreaterThan(20);
  });
});
