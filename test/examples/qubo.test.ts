// The sample QUBO of examples/qubo is what examples/qubo/README.md says: four-variables.json is the contract's
// QuboInput example and a valid startQuboJob body, four-variables.qubo the contract's .qubo upload example and
// the same matrix, and the minimum energy of both is -11 at (1, 0, 0, 1), by enumeration.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { jsonSchema } from '../contract/checks/support.ts';
import { loadContract, operationById, schemaValidator } from '../contract/openapi-document.ts';
import { bruteForceQubo, quboFromFile } from '../contract/qubo.ts';

const folder = path.join(import.meta.dirname, '..', '..', 'examples', 'qubo');
const doc = loadContract();
const read = (name: string) => fs.readFileSync(path.join(folder, name), 'utf8');

it('the folder holds the README and the two forms of the 4-variable QUBO', () => {
  expect(fs.readdirSync(folder).sort()).toEqual(['README.md', 'four-variables.json', 'four-variables.qubo']);
});

it("four-variables.json is the contract's QuboInput example and a valid startQuboJob body", () => {
  const input: unknown = JSON.parse(read('four-variables.json'));
  expect(input).toEqual(doc.components.examples.QuboInput.value);
  const body = jsonSchema(doc, operationById(doc, 'startQuboJob').operation.requestBody);
  expect(schemaValidator(doc)(body!, input)).toEqual([]);
});

it("four-variables.qubo is the contract's .qubo upload example, and the same QUBO as four-variables.json", () => {
  const examples = doc.paths['/data_file'].post.requestBody.content['multipart/form-data'].examples;
  expect(read('four-variables.qubo')).toBe(examples.qubo.value.file);
  expect(quboFromFile(read('four-variables.qubo'))).toEqual(JSON.parse(read('four-variables.json')));
});

it('its minimum energy, by enumerating the 16 assignments, is -11 at (1, 0, 0, 1)', () => {
  const { q_matrix: q } = JSON.parse(read('four-variables.json'));
  expect(bruteForceQubo(q)).toEqual({ energy: -11, assignment: [1, 0, 0, 1] });
});
