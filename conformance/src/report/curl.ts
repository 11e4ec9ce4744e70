// "Reproduce with: curl …": each failure's request as a command to paste (bash or zsh), as Schemathesis
// prints. Every argument is quoted; a session token is a variable ($JES_TOKEN) set by a login line printed
// once, and a password is the variable the suite reads it from; a body is sent whole: inline when short,
// else from a file written beside the report (or in the temp folder), which the command names.
import { sentOf, type SentBody, type SentPart } from '../sent.ts';
import type { Exchange } from '../types.ts';
import { quote, type Segment, segmentsOf, word } from './shell.ts';

export type User = 'user' | 'user2';

export interface ReproduceSetup {
  baseUrl: string;
  /** The users the run logged in as, each password with the shell expression that gives it and where that comes from (none: it is no secret). */
  users: Partial<
    Record<User, { username: string; password: string; passwordExpression?: string; passwordFrom?: string }>
  >;
  /** Writes a body too long for a command line; returns the path the command names. */
  writeBody(name: string, content: string | Uint8Array): string;
}

export interface Reproducer {
  /** The command that sends the exchange's request again, and whose tokens it needs. */
  command(exchange: Exchange): { command: string; users: User[] };
  /** The line that puts a user's token in its variable. */
  tokenLine(user: User): string;
}

export const tokenVariables: Record<User, string> = { user: 'JES_TOKEN', user2: 'JES_TOKEN_2' };

/** Bodies up to this many characters go on the command line. */
const inlineMax = 2000;

/**
 * What stands for a password in a command: the variable, where the password appears as is (a form, Basic
 * credentials), and the variable JSON-escaped by sed, where it appears inside a JSON string.
 */
export function passwordSecrets(password: string, expression: string): { value: string; expression: string }[] {
  const raw = { value: password, expression };
  const escaped = JSON.stringify(password).slice(1, -1);
  if (escaped === password) return [raw];
  return [raw, { value: escaped, expression: `$(printf %s "${expression}" | sed 's/[\\\\"]/\\\\&/g')` }];
}

export function createReproducer(setup: ReproduceSetup): Reproducer {
  const secrets = Object.values(setup.users).flatMap((u) =>
    u?.passwordExpression ? passwordSecrets(u.password, u.passwordExpression) : [],
  );
  const commands = new Map<Exchange, { command: string; users: User[] }>();
  let files = 0;

  /** Writes the pieces of text of `segments` to files; the shell words that print the whole body. */
  function fromFiles(check: string, segments: Segment[], extension: string): { stdin?: string; path?: string } {
    const base = `${++files}-${check}`;
    if (segments.length === 1 && typeof segments[0] === 'string')
      return { path: setup.writeBody(`${base}.${extension}`, segments[0]) };
    let part = 0;
    const printed = segments
      .filter((s) => s !== '')
      .map((s) =>
        typeof s === 'string'
          ? `cat ${quote(setup.writeBody(`${base}.part${++part}`, s))}`
          : `printf %s "${s.expression}"`,
      );
    return { stdin: `{ ${printed.join('; ')}; }` };
  }

  function bodyArguments(
    check: string,
    body: SentBody,
    headers: Record<string, string>,
  ): { stdin?: string; args: string[] } {
    if ('bytes' in body)
      return { args: ['--data-binary', `@${quote(setup.writeBody(`${++files}-${check}.bin`, body.bytes))}`] };
    if ('text' in body) {
      const segments = segmentsOf(body.text, secrets);
      if (body.text.length <= inlineMax && !body.text.includes('\u0000'))
        return { args: ['--data-binary', word(segments)] };
      const written = fromFiles(check, segments, /json/.test(headers['content-type'] ?? '') ? 'json' : 'txt');
      // curl asks a server for 100-continue before a large body; fetch never does.
      return written.path
        ? { args: ['-H', quote('expect:'), '--data-binary', `@${quote(written.path)}`] }
        : { stdin: written.stdin!, args: ['-H', quote('expect:'), '--data-binary', '@-'] };
    }
    return formArguments(check, body.form);
  }

  function formArguments(check: string, parts: SentPart[]): { stdin?: string; args: string[] } {
    let stdin: string | undefined;
    const args: string[] = [];
    for (const part of parts) {
      if ('value' in part) {
        args.push('--form-string', word(segmentsOf(`${part.name}=${part.value}`, secrets)));
        continue;
      }
      const filename = `filename="${part.filename.replace(/[\\"]/g, (c) => `\\${c}`)}"${part.type ? `;type=${part.type}` : ''}`;
      if (stdin === undefined && part.content.length <= inlineMax) {
        stdin = `printf %s ${word([part.content])}`;
        args.push('-F', quote(`${part.name}=@-;${filename}`));
      } else {
        args.push(
          '-F',
          quote(`${part.name}=@${setup.writeBody(`${++files}-${check}-${part.name}.txt`, part.content)};${filename}`),
        );
      }
    }
    return { ...(stdin ? { stdin } : {}), args };
  }

  /** The Authorization header as a word, and whose token it needs. */
  function authorization(value: string, user: User | undefined): { arg: string; user?: User } {
    if (user && /^Bearer /i.test(value)) return { arg: `"authorization: Bearer $${tokenVariables[user]}"`, user };
    for (const u of Object.values(setup.users)) {
      // The password sent as Basic credentials (base64, padding dropped as the check sends it), rebuilt from its variable.
      const basic = Buffer.from(`${u?.username}:${u?.password}`).toString('base64');
      if (u?.passwordExpression && value === `Basic ${basic.replace(/=+$/, '')}`) {
        return {
          arg: `"authorization: Basic $(printf %s ${word([`${u.username}:`, { expression: u.passwordExpression }])} | base64 | tr -d '\\n=')"`,
        };
      }
    }
    return { arg: quote(`authorization: ${value}`) };
  }

  function build(exchange: Exchange): { command: string; users: User[] } {
    const { method, url, headers } = exchange.request;
    const sent = sentOf(exchange);
    const args = ['curl', '-i'];
    if (method !== 'GET') args.push('-X', quote(method));
    args.push(quote(url));
    const users: User[] = [];
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() !== 'authorization') {
        args.push('-H', quote(`${name}: ${value}`));
        continue;
      }
      const auth = authorization(value, sent?.user);
      args.push('-H', auth.arg);
      if (auth.user) users.push(auth.user);
    }
    // fetch labels a text body it is given without a Content-Type; curl would label it a form.
    if (sent?.body && 'text' in sent.body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      args.push('-H', quote('content-type: text/plain;charset=UTF-8'));
    const body = sent?.body ? bodyArguments(exchange.check, sent.body, headers) : { args: [] };
    const command = [...args, ...body.args].join(' ');
    return { command: body.stdin ? `${body.stdin} | ${command}` : command, users };
  }

  return {
    command(exchange) {
      if (!commands.has(exchange)) commands.set(exchange, build(exchange));
      return commands.get(exchange)!;
    },
    tokenLine(user) {
      const u = setup.users[user];
      if (!u) return `# no credentials of a second user: ${tokenVariables[user]} cannot be set`;
      const credentials = segmentsOf(JSON.stringify({ username: u.username, password: u.password }), secrets);
      const login = [
        'curl',
        '-sS',
        '-X',
        'POST',
        quote(`${setup.baseUrl.replace(/\/+$/, '')}/login`),
        '-H',
        quote('content-type: application/json'),
        '--data-binary',
        word(credentials),
      ].join(' ');
      return `export ${tokenVariables[user]}="$(${login} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')"`;
    },
  };
}

/**
 * The lines that reproduce a failure's request: for each token it needs that is not in `given` yet (added to
 * it) a comment and the line that sets it, then "Reproduce with: curl …".
 */
export function reproduceLines(
  reproducer: Reproducer,
  setup: Pick<ReproduceSetup, 'users'>,
  exchange: Exchange,
  given: Set<User> = new Set(),
): string[] {
  const { command, users } = reproducer.command(exchange);
  const lines: string[] = [];
  for (const user of users) {
    if (given.has(user)) continue;
    given.add(user);
    lines.push(
      `# ${tokenVariables[user]}: a token of ${setup.users[user]?.username ?? 'the second user'}${passwordNote(setup, user)}`,
      reproducer.tokenLine(user),
    );
  }
  lines.push(`Reproduce with: ${command}`);
  return lines;
}

function passwordNote(setup: Pick<ReproduceSetup, 'users'>, user: User): string {
  const from = setup.users[user]?.passwordFrom;
  return from ? ` (the password from ${from})` : '';
}
