// "Reproduce with: curl …": each failure's request as a command to paste (bash or zsh), as Schemathesis
// prints. Every argument is quoted; a session token is a variable ($JES_TOKEN) set by a login line printed
// once, and a password, a given token, the given headers (-H) and the TLS files are the variables the suite reads
// them from (a line says what to export when the run had them from a flag); a body is sent whole: inline when
// short, else from a file written beside the report (or in the temp folder), which the command names.
import { sentOf, type SentBody, type SentPart } from '../sent.ts';
import type { Exchange } from '../types.ts';
import { quote, type Segment, segmentsOf, word } from './shell.ts';

export type User = 'user' | 'user2';

/** A value the commands read from a variable; `flag` when the run had it from that flag instead (then `path`, a file's, is printed). */
export interface FromVariable {
  variable: string;
  flag?: string;
  path?: string;
}

export interface ReproduceSetup {
  baseUrl: string;
  /**
   * The users of the run: a token given to it, or the username and password it logged in with, each password with
   * the shell expression that gives it and where that comes from (none: it is no secret).
   */
  users: Partial<
    Record<
      User,
      { username?: string; password?: string; passwordExpression?: string; passwordFrom?: string; token?: FromVariable }
    >
  >;
  /** The headers given to the run (-H), by lower-case name, and the variable that holds them one `Name: value` a line. */
  headers?: { values: Record<string, string>; from: FromVariable };
  /** The PEM files of a private CA and of a client certificate and its key. */
  tls?: { ca?: FromVariable; cert?: FromVariable; key?: FromVariable };
  /** Writes a body too long for a command line; returns the path the command names. */
  writeBody(name: string, content: string | Uint8Array): string;
}

/** What a command needs set first: a user's token, the given headers' variable, the TLS files' variables. */
export type Need = User | 'headers' | 'tls';

export interface Reproducer {
  /** The command that sends the exchange's request again, and what it needs set first (in that order). */
  command(exchange: Exchange): { command: string; needs: Need[] };
  /** The lines that set what `need` names, or say what to export (none: the run read it from its variable). */
  preamble(need: Need): string[];
}

/** The variables of the session tokens the login lines set. */
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

/** curl's arguments for the TLS files, and the given headers read from their variable (without `except`, which a request set itself). */
function transportArguments(setup: ReproduceSetup, except: string[] = []): string[] {
  const { ca, cert, key } = setup.tls ?? {};
  const args = [
    ...(ca ? ['--cacert', `"$${ca.variable}"`] : []),
    ...(cert && key ? ['--cert', `"$${cert.variable}"`, '--key', `"$${key.variable}"`] : []),
  ];
  if (setup.headers) {
    // curl (7.55 and newer) reads headers from a file, one a line: here the variable's lines.
    const dropped = except.map((name) => ` -e ${quote(`^ *${name} *:`)}`).join('');
    const lines = `printf '%s\\n' "$${setup.headers.from.variable}"${dropped ? ` | grep -iv${dropped}` : ''}`;
    args.push('-H', `@<(${lines})`);
  }
  return args;
}

/** What the run had from flags, to be exported before the commands run. */
function preambleLines(setup: ReproduceSetup, need: Need): string[] {
  if (need === 'headers') {
    if (!setup.headers) return [];
    const { values, from } = setup.headers;
    return from.flag
      ? [
          `# ${from.variable}: export the headers given with ${from.flag} (${Object.keys(values).join(', ')}), one "Name: value" a line`,
        ]
      : [];
  }
  if (need === 'tls')
    return Object.values(setup.tls ?? {}).flatMap((file) =>
      file?.flag && file.path ? [`export ${file.variable}=${quote(file.path)}`] : [],
    );
  const token = setup.users[need]?.token;
  return token?.flag ? [`# ${token.variable}: export the token given with ${token.flag}`] : [];
}

export function createReproducer(setup: ReproduceSetup): Reproducer {
  const secrets = Object.values(setup.users).flatMap((u) =>
    u?.passwordExpression && u.password !== undefined ? passwordSecrets(u.password, u.passwordExpression) : [],
  );
  const commands = new Map<Exchange, { command: string; needs: Need[] }>();
  /** Set before any command: they are on every one (and on the login lines). */
  const transportNeeds = (['headers', 'tls'] as const).filter((need) => preambleLines(setup, need).length);
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
    if (user && /^Bearer /i.test(value))
      return { arg: `"authorization: Bearer $${setup.users[user]?.token?.variable ?? tokenVariables[user]}"`, user };
    for (const u of Object.values(setup.users)) {
      // The password sent as Basic credentials (base64, padding dropped as the check sends it), rebuilt from its variable.
      const basic = Buffer.from(`${u?.username}:${u?.password}`).toString('base64');
      if (u?.passwordExpression && u.username !== undefined && value === `Basic ${basic.replace(/=+$/, '')}`) {
        return {
          arg: `"authorization: Basic $(printf %s ${word([`${u.username}:`, { expression: u.passwordExpression }])} | base64 | tr -d '\\n=')"`,
        };
      }
    }
    return { arg: quote(`authorization: ${value}`) };
  }

  function build(exchange: Exchange): { command: string; needs: Need[] } {
    const { method, url } = exchange.request;
    const sent = sentOf(exchange);
    // The headers as sent: the exchange records secrets hidden.
    const headers = sent?.headers ?? exchange.request.headers;
    const given = setup.headers?.values ?? {};
    // A given header a request set otherwise is sent as the request had it, not from the variable.
    const overridden = Object.keys(given).filter((name) => name in headers && headers[name] !== given[name]);
    const args = ['curl', '-i'];
    if (method !== 'GET') args.push('-X', quote(method));
    args.push(quote(url), ...transportArguments(setup, overridden));
    const users: User[] = [];
    for (const [name, value] of Object.entries(headers)) {
      if (name in given && !overridden.includes(name)) continue;
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
    return { command: body.stdin ? `${body.stdin} | ${command}` : command, needs: [...transportNeeds, ...users] };
  }

  /** The line that logs `user` in and puts the session token in its variable. */
  function tokenLine(user: User): string {
    const u = setup.users[user];
    if (u?.username === undefined || u.password === undefined)
      return `# no credentials of ${user === 'user' ? 'the user' : 'a second user'}: ${tokenVariables[user]} cannot be set`;
    const credentials = segmentsOf(JSON.stringify({ username: u.username, password: u.password }), secrets);
    const login = [
      'curl',
      '-sS',
      ...transportArguments(setup),
      '-X',
      'POST',
      quote(`${setup.baseUrl.replace(/\/+$/, '')}/login`),
      '-H',
      quote('content-type: application/json'),
      '--data-binary',
      word(credentials),
    ].join(' ');
    return `export ${tokenVariables[user]}="$(${login} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')"`;
  }

  return {
    command(exchange) {
      if (!commands.has(exchange)) commands.set(exchange, build(exchange));
      return commands.get(exchange)!;
    },
    preamble(need) {
      if (need === 'headers' || need === 'tls' || setup.users[need]?.token) return preambleLines(setup, need);
      const u = setup.users[need];
      const note = u?.passwordFrom ? ` (the password from ${u.passwordFrom})` : '';
      return [`# ${tokenVariables[need]}: a token of ${u?.username ?? 'the second user'}${note}`, tokenLine(need)];
    },
  };
}

/**
 * The lines that reproduce a failure's request: for each thing it needs that is not in `given` yet (added to it)
 * the lines that set it (a token's login line, what to export), then "Reproduce with: curl …".
 */
export function reproduceLines(reproducer: Reproducer, exchange: Exchange, given: Set<string> = new Set()): string[] {
  const { command, needs } = reproducer.command(exchange);
  const lines: string[] = [];
  for (const need of needs) {
    if (given.has(need)) continue;
    given.add(need);
    lines.push(...reproducer.preamble(need));
  }
  lines.push(`Reproduce with: ${command}`);
  return lines;
}
