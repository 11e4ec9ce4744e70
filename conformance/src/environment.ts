// The JES_CONFORMANCE_* variables, read the same way by the command (as its defaults) and by the vitest
// entry (test/deployment.test.ts).
import type { Profile } from './types.ts';

export interface FromEnvironment {
  baseUrl?: string;
  username?: string;
  password?: string;
  /** `name:password` of the second user. */
  secondUser?: string;
  profile?: Profile;
  /** `host:port` to receive webhook deliveries on. */
  webhookListen?: string;
  /** Bearer tokens of the user and the second user, instead of logging in. */
  token?: string;
  secondToken?: string;
  /** Headers sent with every request, one `Name: value` a line. */
  headers?: string;
  /** PEM files: CA certificates to trust besides the default ones, a client certificate and its key. */
  caFile?: string;
  cert?: string;
  key?: string;
}

export const variables = {
  baseUrl: 'JES_CONFORMANCE_BASE_URL',
  username: 'JES_CONFORMANCE_USERNAME',
  password: 'JES_CONFORMANCE_PASSWORD',
  secondUser: 'JES_CONFORMANCE_SECOND_USER',
  profile: 'JES_CONFORMANCE_PROFILE',
  webhookListen: 'JES_CONFORMANCE_WEBHOOK_LISTEN',
  token: 'JES_CONFORMANCE_TOKEN',
  secondToken: 'JES_CONFORMANCE_SECOND_TOKEN',
  headers: 'JES_CONFORMANCE_HEADERS',
  caFile: 'JES_CONFORMANCE_CA_FILE',
  cert: 'JES_CONFORMANCE_CERT',
  key: 'JES_CONFORMANCE_KEY',
} as const;

export function fromEnvironment(env: NodeJS.ProcessEnv = process.env): FromEnvironment {
  const found: FromEnvironment = {};
  for (const [key, name] of Object.entries(variables) as [keyof FromEnvironment, string][]) {
    const value = env[name];
    if (value) (found as Record<string, string>)[key] = value;
  }
  return found;
}

/** `name:password` split, or undefined when it is not of that form. */
export function splitUser(value: string): { username: string; password: string } | undefined {
  const match = /^([^:]+):(.+)$/.exec(value);
  return match ? { username: match[1]!, password: match[2]! } : undefined;
}
