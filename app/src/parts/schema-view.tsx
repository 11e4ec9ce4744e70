// A JSON Schema as a reader wants it: each field with its type, whether it is required, its limits and its
// description, nested fields indented under their parent. Covers what the use cases' schemas use (objects,
// arrays, enums, numeric and size limits, oneOf/anyOf, local $ref), and shows anything else as JSON.
type Schema = Record<string, any>;

const limitNames: [string, string][] = [
  ['minimum', '≥'],
  ['exclusiveMinimum', '>'],
  ['maximum', '≤'],
  ['exclusiveMaximum', '<'],
  ['minItems', 'items ≥'],
  ['maxItems', 'items ≤'],
  ['minLength', 'length ≥'],
  ['maxLength', 'length ≤'],
  ['minProperties', 'members ≥'],
  ['maxProperties', 'members ≤'],
  ['pattern', 'matches'],
  ['format', 'format'],
];

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<any>((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
  return target && typeof target === 'object' ? { ...target, ...schema, $ref: undefined } : schema;
}

function typeOf(schema: Schema): string {
  if (schema.const !== undefined) return `= ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array' && schema.items) return `array of ${typeOf(schema.items)}`;
  return type ?? (schema.oneOf ? 'one of' : schema.anyOf ? 'any of' : 'any');
}

function limits(schema: Schema): string[] {
  return limitNames.filter(([key]) => schema[key] !== undefined).map(([key, label]) => `${label} ${schema[key]}`);
}

function Field({ name, schema, required, root }: { name: string; schema: Schema; required: boolean; root: Schema }) {
  const resolved = resolve(schema, root);
  const rows = [...limits(resolved)];
  let inner = resolved;
  // Arrays of arrays (a matrix): the limits of each level, outermost first.
  while (inner.type === 'array' && inner.items) {
    inner = resolve(inner.items, root);
    rows.push(...limits(inner).map((l) => `each item: ${l}`));
  }
  return (
    <li>
      <code class="field">{name}</code> <span class="type">{typeOf(resolved)}</span>
      {required && <span class="required">required</span>}
      {rows.length > 0 && <span class="limits">{rows.join(' · ')}</span>}
      {resolved.description && <p class="description">{resolved.description}</p>}
      <Members schema={inner} root={root} />
    </li>
  );
}

function Members({ schema, root }: { schema: Schema; root: Schema }) {
  const alternatives: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (alternatives)
    return (
      <ol class="alternatives">
        {alternatives.map((alternative, i) => (
          <li key={i}>
            <SchemaView schema={resolve(alternative, root)} root={root} />
          </li>
        ))}
      </ol>
    );
  if (!schema.properties) return null;
  const required = new Set<string>(schema.required ?? []);
  return (
    <ul class="fields">
      {Object.entries<Schema>(schema.properties).map(([name, member]) => (
        <Field key={name} name={name} schema={member} required={required.has(name)} root={root} />
      ))}
      {schema.additionalProperties === false && <li class="closed">No other members are allowed.</li>}
    </ul>
  );
}

export function SchemaView({ schema, root = schema }: { schema: Schema; root?: Schema }) {
  return (
    <div class="schema">
      <p>
        <span class="type">{typeOf(schema)}</span> {limits(schema).join(' · ')}
      </p>
      {schema.description && <p class="description">{schema.description}</p>}
      <Members schema={schema} root={root} />
    </div>
  );
}
