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
}

export const variables = {
  baseUrl: 'JES_CONFORMANCE_BASE_URL',
  username: 'JES_CONFORMANCE_USERNAME',
  password: 'JES_CONFORMANCE_PASSWORD',
  secondUser: 'JES_CONFORMANCE_SECOND_USER',
  profile: 'JES_CONFORMANCE_PROFILE',
  webhookListen: 'JES_CONFORMANCE_WEBHOOK_LISTEN',
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
