// What deploy/Dockerfile and deploy/compose.yaml say, read once for the deployment's tests: the environment the image
// sets, and each service of the compose file with its environment interpolated as `docker compose` does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, type Env } from 'dockerfile-ast';
import { parse } from 'yaml';
import { repoRoot } from '../support/child-server.ts';

/** The ENV of the last stage (the image that runs) of deploy/Dockerfile or `source`; `$PATH` and such as written. */
export function imageEnvironment(
  source = readFileSync(join(repoRoot, 'deploy/Dockerfile'), 'utf8'),
): Record<string, string> {
  const dockerfile = DockerfileParser.parse(source);
  const instructions = dockerfile.getInstructions();
  const final = instructions.slice(instructions.lastIndexOf(dockerfile.getFROMs().at(-1)!));
  return Object.fromEntries(
    final
      .filter((i) => i.getKeyword() === 'ENV')
      .flatMap((i) => (i as Env).getProperties().map((p) => [p.getName(), p.getValue() ?? ''])),
  );
}

export interface Service {
  command?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  build?: unknown;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
  [key: string]: unknown;
}

/** deploy/compose.yaml as `docker compose` reads it before interpolation (YAML merge keys applied). */
export function composeFile(): { services: Record<string, Service>; [key: string]: unknown } {
  return parse(readFileSync(join(repoRoot, 'deploy/compose.yaml'), 'utf8'), { merge: true });
}

/**
 * `value` with compose's interpolation from `variables`: `${NAME}`, `${NAME:-default}`, `${NAME:?error}` (an error
 * when unset or empty, as compose refuses to start), `$$` for a dollar. Anything else is refused, not guessed at.
 */
export function interpolate(value: string, variables: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([^}]*))?\}|\$/g, (whole, name, how, word) => {
    if (whole === '$$') return '$';
    if (whole === '$') throw new Error(`compose.yaml: a bare $ in "${value}"; write $$ or \${NAME}`);
    const set = variables[name as string];
    if (set) return set;
    if (how === ':?') throw new Error(`compose would refuse to start: ${name} (${word as string})`);
    return how === ':-' ? (word as string) : '';
  });
}
