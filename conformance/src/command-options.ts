// The jes-conformance command's options: the flags' parsers, the options the main command and `replay` share (how the
// run reaches the deployment and as whom), and the values checked into runConformance's options, each error naming
// the variable a value came from, else the flag.
import { InvalidArgumentError, Option } from 'commander';
import { splitUser, variables } from './environment.ts';
import { replayPathPattern } from './generate/property.ts';
import { headerLines } from './given-headers.ts';
import { parseRate } from './pace.ts';
import { type FileNames, tlsSettings } from './transport.ts';
import type { ConformanceOptions, Profile } from './types.ts';
import { listenAddress } from './webhook-receiver.ts';

/** The flags of accessOptions(). */
export interface AccessFlags {
  token?: string;
  secondToken?: string;
  /** Each -H as given, or JES_CONFORMANCE_HEADERS (one a line). */
  header?: string[];
  caFile?: string;
  cert?: string;
  key?: string;
}

export interface Options extends AccessFlags {
  baseUrl: string;
  username?: string;
  password?: string;
  secondUser?: string;
  profile: Profile;
  only: string[];
  checks: string[];
  operation: string[];
  junit?: string;
  report?: string;
  seed: number;
  runs: number;
  rateLimit?: string;
  contract?: string;
  webhookListen?: string;
  maxResponseTime?: number;
  replayPath?: string;
  config?: string;
  githubAnnotations?: boolean;
  har?: string;
  list?: boolean;
}

/** The options of `jes-conformance replay <file.har>`. */
export interface ReplayCommandOptions extends AccessFlags {
  baseUrl: string;
  username?: string;
  password?: string;
  secondUser?: string;
  rateLimit?: string;
  contract?: string;
  report?: string;
  junit?: string;
}

export const defaultBaseUrl = 'http://localhost:3000';

export function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

export function milliseconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0)
    throw new InvalidArgumentError('expected a whole number of milliseconds above 0');
  return Number(value);
}

export function replayPath(value: string): string {
  if (!replayPathPattern.test(value))
    throw new InvalidArgumentError('expected <target>/<fast-check path> as a failure gives it, such as 3/5:1:0');
  return value;
}

export function rate(value: string): string {
  if (parseRate(value) === undefined)
    throw new InvalidArgumentError('expected requests per second, minute or hour: 10/s, 600/m, 3600/h');
  return value;
}

export function listen(value: string): string {
  if (!listenAddress(value))
    throw new InvalidArgumentError(
      'expected host:port, the address the deployment calls ([::1]:port for IPv6, port 0 for any free one; not 0.0.0.0)',
    );
  return value;
}

/** A repeated option's values, each of which may be a list separated by commas (known only once --checks loaded). */
export function list(value: string, previous: string[]): string[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return [...previous, ...names];
}

/** A repeated option's values as given (each -H checked with the others later, so that no error repeats a value, as commander's would). */
export const repeated = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** How the run reaches the deployment and as whom, beside a username and password: the main command's and replay's. */
export function accessOptions(): Option[] {
  return [
    new Option('--token <token>', 'a bearer token of the user, sent instead of logging in (issued elsewhere)').env(
      variables.token,
    ),
    new Option('--second-token <token>', "the second user's bearer token").env(variables.secondToken),
    new Option(
      '-H, --header <"Name: value">',
      "a header sent with every request, such as a gateway's API key (repeat it; the variable holds one a line)",
    )
      .env(variables.headers)
      .argParser(repeated),
    new Option(
      '--ca-file <pem>',
      "CA certificates to trust besides the default ones (the deployment's private CA)",
    ).env(variables.caFile),
    new Option('--cert <pem>', 'a client certificate, for a deployment that asks for one').env(variables.cert),
    new Option('--key <pem>', "the client certificate's private key").env(variables.key),
  ];
}

/** Where an option's value came from: `cli` (its flag), `env` (its variable), `default`, or undefined (unset). */
export type SourceOf = (option: string) => string | undefined;

/** accessOptions' values checked (each error names the variable a value came from, else the flag). */
export function access(
  o: AccessFlags,
  sourceOf: SourceOf,
): Pick<ConformanceOptions, 'token' | 'token2' | 'headers' | 'caFile' | 'certFile' | 'keyFile'> {
  // An error names the variable a value came from, else the flag.
  const named = (option: keyof AccessFlags, flag: string, variable: string) =>
    sourceOf(option) === 'env' ? variable : flag;
  const names: FileNames = {
    caFile: named('caFile', '--ca-file', variables.caFile),
    certFile: named('cert', '--cert', variables.cert),
    keyFile: named('key', '--key', variables.key),
  };
  const files = { caFile: o.caFile || undefined, certFile: o.cert || undefined, keyFile: o.key || undefined };
  tlsSettings(files, names);
  let given: Record<string, string> = {};
  try {
    for (const lines of o.header ?? []) given = headerLines(lines, given);
  } catch (error) {
    throw new Error(`${named('header', '-H', variables.headers)}: ${(error as Error).message}`);
  }
  // An empty variable counts as unset.
  return {
    ...(o.token ? { token: o.token } : {}),
    ...(o.secondToken ? { token2: o.secondToken } : {}),
    ...(Object.keys(given).length ? { headers: given } : {}),
    ...(files.caFile ? { caFile: files.caFile } : {}),
    ...(files.certFile ? { certFile: files.certFile, keyFile: files.keyFile! } : {}),
  };
}

export function conformanceOptions(o: Options, sourceOf: SourceOf): ConformanceOptions {
  const sandbox = o.profile === 'sandbox';
  // An empty variable counts as unset.
  const token = o.token || undefined;
  const username = o.username || (sandbox && !token ? 'sandbox' : undefined);
  const password = o.password || (sandbox && !token ? 'sandbox' : undefined);
  if (!token && (username === undefined || password === undefined))
    throw new Error(
      `--username and --password are required (or ${variables.username} and ${variables.password}), or --token (${variables.token})`,
    );
  const baseUrl = o.baseUrl || defaultBaseUrl;
  if (!/^https?:\/\/[^/]/i.test(baseUrl))
    throw new Error(
      `--base-url takes an http:// or https:// URL; got "${baseUrl}"${/^[\w.-]+:\d+/.test(baseUrl) ? ` (http://${baseUrl}?)` : ''}`,
    );
  if (o.replayPath && o.only.length !== 1)
    throw new Error('--replay-path replays a case of one check: give that check with --only <check>');
  const second = o.secondUser ? splitUser(o.secondUser) : undefined;
  if (o.secondUser && !second) throw new Error('--second-user takes name:password');
  return {
    baseUrl,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    ...access(o, sourceOf),
    profile: o.profile,
    only: o.only,
    ...(o.operation.length ? { operations: o.operation } : {}),
    seed: o.seed,
    runs: o.runs,
    ...(second ? { username2: second.username, password2: second.password } : {}),
    ...(o.contract ? { contractPath: o.contract } : {}),
    ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
    ...(o.webhookListen ? { webhookListen: o.webhookListen } : {}),
    ...(o.maxResponseTime !== undefined ? { maxResponseTimeMs: o.maxResponseTime } : {}),
    ...(o.replayPath ? { replayPath: o.replayPath } : {}),
    ...(o.har ? { har: o.har } : {}),
  };
}
