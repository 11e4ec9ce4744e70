// fast-check arbitraries from the contract's JSON Schemas (the keywords the contract uses for requests:
// type, enum, const, pattern, length and numeric bounds, items, uniqueItems, properties, required, oneOf,
// $ref). Sizes are kept small; every value is checked against the schema by the caller's validator.
import fc from 'fast-check';
import type { Contract } from '../contract/contract.ts';
import { deref, type Node } from '../contract/document.ts';

const maxInt = 2 ** 31 - 1;

function numberArbitrary(schema: Node, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? schema.exclusiveMinimum ?? -1000;
  const high = schema.maximum ?? schema.exclusiveMaximum ?? 1000;
  if (integer) {
    const min = Math.max(-maxInt, Math.ceil(schema.exclusiveMinimum !== undefined ? low + 1 : low));
    const max = Math.min(maxInt, Math.floor(schema.exclusiveMaximum !== undefined ? high - 1 : high));
    return fc.integer({ min, max });
  }
  return fc.double({
    min: low,
    max: high,
    noNaN: true,
    noDefaultInfinity: true,
    minExcluded: schema.exclusiveMinimum !== undefined,
    maxExcluded: schema.exclusiveMaximum !== undefined,
  });
}

function stringArbitrary(schema: Node): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 24, Math.max(minLength, 24));
  if (schema.pattern)
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  return fc.string({ minLength, maxLength });
}

function objectArbitrary(contract: Contract, schema: Node): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.fromEntries(
    Object.entries<Node>(schema.properties ?? {}).map(([name, sub]) => [name, arbitraryOf(contract, sub)]),
  );
  return fc.record(properties, { requiredKeys: (schema.required ?? []) as string[] });
}

/** Values of `schema` (refs into the contract resolved). */
export function arbitraryOf(contract: Contract, raw: Node): fc.Arbitrary<unknown> {
  const schema = deref(contract.doc, raw)!;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.oneOf) return fc.oneof(...(schema.oneOf as Node[]).map((branch) => arbitraryOf(contract, branch)));
  const types: string[] = schema.type === undefined ? ['object'] : [schema.type].flat();
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringArbitrary(schema);
        case 'integer':
        case 'number':
          return numberArbitrary(schema, type === 'integer');
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const items = arbitraryOf(contract, schema.items ?? {});
          const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) };
          return schema.uniqueItems
            ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
            : fc.array(items, constraints);
        }
        default:
          return objectArbitrary(contract, schema);
      }
    }),
  );
}
