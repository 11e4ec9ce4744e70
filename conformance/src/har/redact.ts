// What a HAR of a run never holds: the users' passwords, the tokens the run was given or issued (each login's
// access_token, every token sent as a user's), a Basic credential made of a password, webhook signing secrets, the
// values of headers given with -H, cookies. Each is replaced by a marker naming what stood there
// (`[redacted:password]`, `[redacted:token@12]`: the token entry 12's login answered), so that a replay can put in
// the secret of its own (the password it is given, the token its own replay of entry 12 got). A credential the suite
// makes bad on purpose (ignored_auth's bad signature, alg: none, garbage, expired token) holds none of them and is
// kept, so that a replay sends it as it was.

/** A marker as it stands for a secret in a HAR. */
export const marker = (name: string): string => `[redacted:${name}]`;

/** The markers in a text: `[redacted:password]`, `[redacted:token@12]`, … (group 1: the name). */
export const markers = /\[redacted:([\w@:]+)\]/g;

/** Headers whose values are secrets whatever they hold (besides those given with -H). */
export const secretHeaderNames: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
]);

/**
 * Fields of JSON answers that hold secrets: `access_token` (LoginResponse, answers of `login`) and `secret`
 * (Webhook, answers of `getWebhook`, `setWebhook` and `rotateWebhookSecret`: the signing secret).
 */
export const secretFields: ReadonlySet<string> = new Set(['access_token', 'secret']);

/**
 * Passwords shorter than this are redacted only where the run sends them (login bodies, Basic credentials):
 * replaced everywhere, a short one would garble every answer that happens to contain it.
 */
const shortest = 8;

export interface Secrets {
  /** The users' passwords (`password`, `password2`) and usernames (for Basic credentials). */
  users: { name: 'password' | 'password2'; username: string; password: string }[];
  /** Tokens and other secret values, each with the marker name that stands for it. */
  values: { value: string; name: string }[];
  /** Names of headers given with -H (lower case): their values are redacted whatever they hold. */
  headers: ReadonlySet<string>;
}

const jsonEscaped = (value: string) => JSON.stringify(value).slice(1, -1);

export interface Redactor {
  /** The text with every known secret replaced by its marker. */
  text(text: string): string;
  /** A header's value: markers for what it holds, wholly redacted when its name is a secret's. */
  header(name: string, value: string): string;
  /** A login body as sent: its password field's known passwords replaced (byte for byte otherwise). */
  loginBody(text: string): string;
}

export function createRedactor(secrets: Secrets): Redactor {
  // Longest first, so that a secret that contains another is replaced whole; each in its JSON-escaped form too.
  const replacements = [
    ...secrets.values.filter((s) => s.value.length > 0),
    ...secrets.users.filter((u) => u.password.length >= shortest).map((u) => ({ value: u.password, name: u.name })),
  ]
    .flatMap((s) => {
      const escaped = jsonEscaped(s.value);
      return escaped === s.value
        ? [{ value: s.value, marker: marker(s.name) }]
        : [
            { value: s.value, marker: marker(s.name) },
            { value: escaped, marker: marker(`${s.name}:json`) },
          ];
    })
    .sort((a, b) => b.value.length - a.value.length);
  const text = (value: string) =>
    replacements.reduce(
      (current, r) => (current.includes(r.value) ? current.split(r.value).join(r.marker) : current),
      value,
    );

  function basic(value: string): string | undefined {
    const match = /^Basic\s+([A-Za-z0-9+/]+)(=*)$/i.exec(value);
    if (!match) return undefined;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const user = secrets.users.find((u) => decoded === `${u.username}:${u.password}`);
    // The padding stays: a replay pads its own credential as the run did.
    return user ? `Basic ${marker(user.name === 'password' ? 'basic' : 'basic2')}${match[2]}` : undefined;
  }

  return {
    text,
    header(name, value) {
      const lower = name.toLowerCase();
      // Authorization is kept when it holds none of the run's credentials: ignored_auth's bad ones, sent on purpose.
      if (lower === 'authorization' && !secrets.headers.has(lower)) return basic(value) ?? text(value);
      if (secrets.headers.has(lower) || secretHeaderNames.has(lower)) return marker('header');
      return text(value);
    },
    loginBody(body) {
      return text(
        body.replace(/("password"\s*:\s*")((?:[^"\\]|\\.)*)(")/g, (_, open: string, inner: string, close: string) => {
          let hidden = inner;
          for (const u of secrets.users) {
            if (!u.password) continue;
            const escaped = jsonEscaped(u.password);
            hidden = hidden.split(escaped).join(marker(escaped === u.password ? u.name : `${u.name}:json`));
          }
          return `${open}${hidden}${close}`;
        }),
      );
    },
  };
}

/** The secret values of a JSON answer's secret fields (`access_token`, `secret`), anywhere in it. */
export function secretValues(json: unknown, found: string[] = []): string[] {
  if (Array.isArray(json)) for (const item of json) secretValues(item, found);
  else if (json && typeof json === 'object')
    for (const [key, value] of Object.entries(json)) {
      if (secretFields.has(key) && typeof value === 'string' && value) found.push(value);
      else secretValues(value, found);
    }
  return found;
}
