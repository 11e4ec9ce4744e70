// The settings file, jes-conformance.config.json: the command's options by their long names in camelCase
// (`{"baseUrl": "https://…", "maxResponseTime": 500, "only": ["lifecycle"]}`), read after the command line
// and the environment, so that each comes first where it is given (command line > variable > file > default). The
// keys come from the command's own options, each value parsed by its option's parser as if given on the command
// line, so that an option added to the command is a key here with nothing else to change. Paths in the file
// resolve against the file's folder.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Command, Option } from 'commander';

export const defaultConfigFile = 'jes-conformance.config.json';

/** Options that are no setting: the file itself, and what only prints and exits. */
const notSettings = new Set(['config', 'version', 'help']);

/**
 * Whether an option names a file on this machine, by its placeholder: `<file>`, `<dir>`, `<pem>`, a name with an
 * extension (`<file.md>`, `<openapi.yaml>`), `<module>` (a module only when its value starts with `.`: a package
 * name is left as it is).
 */
function pathKind(option: Option): 'file' | 'module' | undefined {
  const placeholder = /<([^>]*)>/.exec(option.flags)?.[1] ?? '';
  if (/^module$/i.test(placeholder)) return 'module';
  return /^(file|pem|dir)$|\.[a-z0-9]+$/i.test(placeholder) ? 'file' : undefined;
}

/** Whether a setting is a secret that a file is a poor place for (a file is easily committed and shared). */
function secretOf(option: Option, values: string[]): boolean {
  const name = option.attributeName();
  if (/password|token|secret|credential|secondUser/i.test(name)) return true;
  if (/PASSWORD|TOKEN|SECRET/.test(option.envVar ?? '')) return true;
  // Headers (-H): those that carry credentials.
  return (
    name === 'header' && values.some((v) => /^\s*(authorization|cookie|[\w-]*(key|token|secret)[\w-]*)\s*:/i.test(v))
  );
}

export interface ConfigRead {
  /** The file as the heading names it. */
  path: string;
  /** One line per secret the file holds. */
  warnings: string[];
}

/**
 * Reads the settings file (`--config`, else ./jes-conformance.config.json when it exists) into `command`, already
 * parsed: each key whose option the command line and the environment left at its default. Throws an Error of one
 * line naming the key for an unknown key or a value its option refuses.
 */
export function readConfig(command: Command, given: string | undefined, cwd = process.cwd()): ConfigRead | undefined {
  const shown = given ?? `./${defaultConfigFile}`;
  const path = resolve(cwd, given ?? defaultConfigFile);
  if (given === undefined && !existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the settings file ${shown}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    throw new Error(`${shown} is not JSON: ${(error as Error).message}`);
  }
  if (!settings || typeof settings !== 'object' || Array.isArray(settings))
    throw new Error(`${shown} holds ${Array.isArray(settings) ? 'an array' : 'no object'}; expected {"baseUrl": …}`);
  const byKey = new Map<string, Option[]>();
  for (const option of command.options) {
    const key = option.attributeName();
    if (!notSettings.has(key)) byKey.set(key, [...(byKey.get(key) ?? []), option]);
  }
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    const options = byKey.get(key);
    if (!options)
      throw new Error(
        `${shown}: unknown key "${key}" (the keys are the options' long names in camelCase: ${[...byKey.keys()].join(', ')})`,
      );
    const source = command.getOptionValueSource(key);
    // An empty variable counts as unset, as it does for the command.
    const unset =
      source === undefined || source === 'default' || (source === 'env' && command.getOptionValue(key) === '');
    const parsed = parse(shown, key, options, value, dirname(path));
    if (parsed.secret) {
      const variable = options.find((o) => o.envVar)?.envVar;
      warnings.push(
        `${shown} holds a secret in "${key}": a settings file is easily committed and shared; ${variable ? `give it by ${variable} instead` : 'give it on the command line from a variable instead'}, or keep the file out of version control`,
      );
    }
    if (unset) command.setOptionValueWithSource(key, parsed.value, 'config');
  }
  return { path: shown, warnings };
}

/** A setting's value as its option takes it (its parser run on each value, as on the command line). */
function parse(
  file: string,
  key: string,
  options: Option[],
  value: unknown,
  folder: string,
): { value: unknown; secret: boolean } {
  const fail = (why: string) => new Error(`${file}: "${key}": ${why}; got ${JSON.stringify(value)}`);
  const takesValue = options.find((o) => o.required || o.optional);
  if (!takesValue) {
    if (typeof value !== 'boolean') throw fail('expected true or false');
    return { value, secret: false };
  }
  const list = Array.isArray(value);
  const items = list ? value : [value];
  if (!items.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))))
    throw fail(list ? 'expected a list of strings or numbers' : 'expected a string or a number');
  const kind = pathKind(takesValue);
  const texts = items.map((v) => {
    const text = String(v);
    if (kind === 'file' && text && !isAbsolute(text)) return resolve(folder, text);
    if (kind === 'module' && /^\.\.?\//.test(text)) return resolve(folder, text);
    return text;
  });
  let result: unknown = takesValue.defaultValue;
  if (takesValue.parseArg) {
    for (const text of texts) {
      try {
        result = takesValue.parseArg(text, result);
      } catch (error) {
        throw fail((error as Error).message.replace(/\.$/, ''));
      }
    }
  } else result = takesValue.variadic ? texts : texts[0];
  if (list && texts.length > 1 && !Array.isArray(result)) throw fail('expected one value, not a list');
  if (list && !texts.length && !Array.isArray(result)) throw fail('expected a value, not an empty list');
  return { value: result, secret: secretOf(takesValue, texts) };
}
