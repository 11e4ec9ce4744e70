// What every command needs: the service URL (--base-url, --sandbox, JES_BASE_URL, else the local server),
// --json, and a client carrying the token (JES_TOKEN, else the one `jes login` stored for that URL).
import type { Command } from 'commander';
import { createJesClient, type JesClient } from '../index.ts';
import { serviceUrl } from './base-url.ts';
import { problemError } from './errors.ts';
import { json } from './format.ts';
import { readToken } from './token-store.ts';

export const defaultBaseUrl = 'http://localhost:3000';
export const sandboxUrl = () => `http://localhost:${process.env.SANDBOX_PORT || 4010}`;

export interface GlobalOptions {
  baseUrl?: string;
  sandbox?: boolean;
  json?: boolean;
}

export interface Context {
  baseUrl: string;
  json: boolean;
  /** Prints `human()` for people, or `data` as JSON with --json. */
  print(data: unknown, human: () => string): void;
  /** A client with the token for this URL; an ExitError (`missing_token`) when there is none. */
  client(): Promise<JesClient>;
}

/** --base-url, else --sandbox, else $JES_BASE_URL, else the local server; without a trailing slash. */
export function baseUrlOf(options: GlobalOptions): string {
  if (options.baseUrl !== undefined) return serviceUrl(options.baseUrl, '--base-url');
  if (options.sandbox) return sandboxUrl();
  return process.env.JES_BASE_URL ? serviceUrl(process.env.JES_BASE_URL, '$JES_BASE_URL') : defaultBaseUrl;
}

export function context(command: Command): Context {
  const options = command.optsWithGlobals<GlobalOptions>();
  const baseUrl = baseUrlOf(options);
  const asJson = options.json ?? false;
  return {
    baseUrl,
    json: asJson,
    print(data, human) {
      process.stdout.write(asJson ? json(data) : human());
    },
    async client() {
      const token = process.env.JES_TOKEN || (await readToken(baseUrl))?.token;
      if (!token) throw problemError({ code: 'missing_token', detail: `not logged in to ${baseUrl}` });
      return createJesClient({ baseUrl, token });
    },
  };
}

/**
 * A commander action that gets the context, a client with the token, then what commander passes but the
 * command itself: the command's arguments, then its options.
 */
export function withClient<A extends unknown[]>(
  handler: (ctx: Context, client: JesClient, ...args: A) => Promise<void>,
) {
  return async (...received: unknown[]) => {
    const ctx = context(received.at(-1) as Command);
    await handler(ctx, await ctx.client(), ...(received.slice(0, -1) as A));
  };
}
