// A JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1) that knows the contract's components, so
// that `$ref: '#/components/schemas/Job'` resolves inside any schema taken from the document.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Node } from './document.ts';

const documentId = 'urn:jes:openapi';

export type Validate = (schema: Node, value: unknown) => string[];

/** Strict mode stays on for schema keywords, so a misspelt keyword fails instead of being ignored. */
export function schemaValidator(doc: Node): Validate {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    strictTypes: false,
    strictTuples: false,
    allErrors: true,
  });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  // x-extensible-enum: the contract's mark of an enum that may grow (the breaking-change gate reads it).
  ajv.addVocabulary(['components', 'example', 'discriminator', 'xml', 'externalDocs', 'x-extensible-enum']);
  ajv.addSchema({ $id: documentId, components: { schemas: doc.components?.schemas ?? {} } });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    // Local refs in the schema point into the document: anchor them at the document's id.
    const anchored = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${documentId}#/`));
    const key = JSON.stringify(anchored);
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile(anchored);
      cache.set(key, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}
