// The server's settings, read once from the environment (contract decisions, section 10). An invalid
// setting stops start-up with one line naming it.
import { availableParallelism } from 'node:os';

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface Config {
  port: number;
  /** postgres://… for a shared PostgreSQL; undefined for the embedded database. */
  databaseUrl: string | undefined;
  /** Where the embedded database lives; 'memory:' for a throw-away one. */
  dataDir: string;
  users: { name: string; password: string }[];
  jwtSecret: string | undefined;
  workers: number;
  env: 'production' | 'sandbox';
  /** undefined when rate limiting is off. */
  rateLimits: { login: RateLimit; submit: RateLimit; default: RateLimit } | undefined;
  maxActiveJobs: number;
  logLevel: string;
  /** Validate responses against the contract (on unless JES_VALIDATE_RESPONSES=off). */
  validateResponses: boolean;
  /** Seconds a worker's claim on an execution lasts without renewal (a dead worker's work is retried after it). */
  leaseSeconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

function parseUsers(raw: string | undefined): Config['users'] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const at = entry.indexOf(':');
    const name = entry.slice(0, at).trim();
    const password = entry.slice(at + 1);
    if (at <= 0 || !password || !/^[A-Za-z0-9._@-]{1,128}$/.test(name)) {
      throw new ConfigError(`JES_USERS must be name:password[,name:password...], got an entry "${entry.split(':')[0]}:…"`);
    }
    return { name, password };
  });
}

const defaultRateLimits = 'login=10/60,submit=60/60,default=1200/60';

function parseRateLimits(raw: string | undefined): Config['rateLimits'] {
  const text = raw?.trim() || defaultRateLimits;
  if (text === 'off') return undefined;
  const limits: Record<string, RateLimit> = {};
  for (const part of (defaultRateLimits + ',' + text).split(',')) {
    const match = /^(login|submit|default)=(\d+)\/(\d+)$/.exec(part.trim());
    if (!match || Number(match[2]) < 1 || Number(match[3]) < 1) {
      throw new ConfigError(`JES_RATE_LIMITS must be "off" or policy=requests/seconds[,...] with policies login, submit, default; got "${text}"`);
    }
    limits[match[1]!] = { limit: Number(match[2]), windowSeconds: Number(match[3]) };
  }
  return { login: limits.login!, submit: limits.submit!, default: limits.default! };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError(`DATABASE_URL must start with postgres://, got "${databaseUrl.split('@').pop()}"`);
  const jesEnv = env.JES_ENV || 'production';
  if (jesEnv !== 'production' && jesEnv !== 'sandbox') throw new ConfigError(`JES_ENV must be production or sandbox, got "${jesEnv}"`);
  const secret = env.JES_JWT_SECRET || undefined;
  if (secret !== undefined && Buffer.byteLength(secret) < 32) throw new ConfigError('JES_JWT_SECRET must be at least 32 bytes');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be a pino level, got "${logLevel}"`);
  const validate = env.JES_VALIDATE_RESPONSES || 'on';
  if (validate !== 'on' && validate !== 'off') throw new ConfigError(`JES_VALIDATE_RESPONSES must be on or off, got "${validate}"`);
  return {
    port: integer('PORT', env.PORT, 3000, 0, 65535),
    databaseUrl,
    dataDir: env.JES_DATA_DIR || './data',
    users: parseUsers(env.JES_USERS),
    jwtSecret: secret,
    workers: integer('JES_WORKERS', env.JES_WORKERS, availableParallelism(), 0, 256),
    env: jesEnv,
    rateLimits: parseRateLimits(env.JES_RATE_LIMITS),
    maxActiveJobs: integer('JES_MAX_ACTIVE_JOBS', env.JES_MAX_ACTIVE_JOBS, 50, 1, 1_000_000),
    logLevel,
    validateResponses: validate === 'on',
    leaseSeconds: integer('JES_LEASE_SECONDS', env.JES_LEASE_SECONDS, 15, 2, 3600),
  };
}
