// The reproduce lines of a run's failures: a command per failure that sends its request again, the secrets left in
// the variables the command reads them from, and bodies too long for a line written to files beside the report.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Options, SourceOf } from './command-options.ts';
import { variables } from './environment.ts';
import type { Reproduce } from './report/console.ts';
import { createReproducer, type FromVariable, type ReproduceSetup, reproduceLines } from './report/curl.ts';
import type { ConformanceOptions } from './types.ts';

/** Where bodies too long for a reproduce line go: beside the markdown report, else a new folder in the temp folder. */
function bodyWriter(report: string | undefined): ReproduceSetup['writeBody'] {
  let dir: string | undefined;
  return (name, content) => {
    if (!dir) {
      dir = report
        ? resolve(`${report.replace(/\.md$/i, '')}.bodies`)
        : mkdtempSync(join(tmpdir(), 'jes-conformance-bodies-'));
      mkdirSync(dir, { recursive: true });
    }
    const path = join(dir, name.replace(/[^\w.-]/g, '_'));
    writeFileSync(path, content);
    return path;
  };
}

/** The reproduce lines of failures; passwords, tokens and the given headers stay in the variables the command reads them from. */
export function reproduction(options: ConformanceOptions, o: Options, sourceOf: SourceOf): Reproduce {
  const from = (option: keyof Options, variable: string, flag: string, path?: string): FromVariable => ({
    variable,
    ...(sourceOf(option) === 'cli' ? { flag, ...(path ? { path: resolve(path) } : {}) } : {}),
  });
  const setup: ReproduceSetup = {
    baseUrl: options.baseUrl,
    users: {
      user: {
        ...(options.username !== undefined ? { username: options.username } : {}),
        ...(options.password !== undefined ? { password: options.password } : {}),
        ...(o.password ? { passwordExpression: `$${variables.password}`, passwordFrom: variables.password } : {}),
        ...(options.token ? { token: from('token', variables.token, '--token') } : {}),
      },
      ...(options.username2 !== undefined && options.password2 !== undefined
        ? {
            user2: {
              username: options.username2,
              password: options.password2,
              passwordExpression: `\${${variables.secondUser}#*:}`,
              passwordFrom: `${variables.secondUser} (name:password)`,
            },
          }
        : {}),
      ...(options.token2 ? { user2: { token: from('secondToken', variables.secondToken, '--second-token') } } : {}),
    },
    ...(options.headers ? { headers: { values: options.headers, from: from('header', variables.headers, '-H') } } : {}),
    tls: {
      ...(options.caFile ? { ca: from('caFile', variables.caFile, '--ca-file', options.caFile) } : {}),
      ...(options.certFile ? { cert: from('cert', variables.cert, '--cert', options.certFile) } : {}),
      ...(options.keyFile ? { key: from('key', variables.key, '--key', options.keyFile) } : {}),
    },
    writeBody: bodyWriter(o.report),
  };
  const reproducer = createReproducer(setup);
  return (exchange, given) => reproduceLines(reproducer, exchange, given);
}
