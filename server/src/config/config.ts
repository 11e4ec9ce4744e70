// The server's settings, read once from the environment (contract decisions, section 10). An invalid
// setting stops start-up with one line naming it.
import { isIP } from 'node:net';
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { attemptTimeoutMs, parseAllowHosts, webhookRetryDelaysMs } from '@jes/contract/node';
import { parseStoredHash } from '../core/password-hash.ts';

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface Config {
  port: number;
  /** The address to listen on: 127.0.0.1 (this machine only) unless HOST says otherwise (0.0.0.0: every interface). */
  host: string;
  /** postgres://… for a shared PostgreSQL; undefined for the embedded database. */
  databaseUrl: string | undefined;
  /** Where the embedded database lives; 'memory:' for a throw-away one. */
  dataDir: string;
  /** Where a throw-away embedded database finds the cluster it starts from (JES_CACHE_DIR); undefined when off. */
  cacheDir: string | undefined;
  users: ConfiguredUser[];
  jwtSecret: string | undefined;
  workers: number;
  /** The most solver threads one execution may use (JES_EXECUTION_THREADS); `workers` when unset. */
  executionThreads: number;
  env: 'production' | 'sandbox';
  /** undefined when rate limiting is off. */
  rateLimits: Record<RatePolicy, RateLimit> | undefined;
  maxActiveJobs: number;
  logLevel: string;
  /** JSON lines, human lines (pino-pretty), or `auto`: human lines when stdout is a terminal. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Validate responses against the contract (on unless JES_VALIDATE_RESPONSES=off). */
  validateResponses: boolean;
  /** Seconds a worker's claim on an execution lasts without renewal (a dead worker's work is retried after it). */
  leaseSeconds: number;
  /**
   * Seconds between SIGTERM and the stop: /readyz answers 503 at once so a balancer stops sending, while requests
   * (and a worker's claims) go on; SIGINT stops at once.
   */
  drainSeconds: number;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For to believe for the client's address. */
  trustProxy: boolean | number | string;
  /** Free bytes the embedded database's disk keeps in reserve: below, new jobs and uploads are refused (507). */
  minFreeDiskBytes: number;
  /** Bytes of data files a user may keep (INVALID ones aside); undefined for no quota (JES_STORAGE_QUOTA_MIB=off). */
  storageQuotaBytes: number | undefined;
  /** Days an ended job (and a data file no job uses) is kept; undefined keeps everything (JES_RETENTION_DAYS=off). */
  retentionDays: number | undefined;
  /** Origins whose pages may call the API from a browser (CORS): a list, '*' for any, undefined for none. */
  corsOrigins: string[] | '*' | undefined;
  /**
   * Services on other origins the dashboard at /app may talk to (its CSP's connect-src, beside its own origin).
   * Never `*`: a page that may connect anywhere can send a token anywhere.
   */
  dashboardOrigins: string[];
  /** Node's HTTP server limits, in milliseconds (timeouts) and sockets. */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxConnections: number;
    /** Open connections one client address may hold (a trusted proxy's are not counted). */
    maxConnectionsPerAddress: number;
    /** Long polls open at once per user; in all, at most half of maxConnections. */
    maxWaitsPerUser: number;
    /** Event streams (GET /job/{id}/events and GET /events together) open at once per user; beyond, 429. */
    maxStreamsPerUser: number;
  };
  /** The webhook sender (webhooks/sender.ts). */
  webhooks: WebhookSettings;
  metrics: MetricsSettings;
}

export interface MetricsSettings {
  /** JES_METRICS: whether metrics are kept and served at all. */
  enabled: boolean;
  /** JES_METRICS_PORT: the ops listener's port (0: any free one); undefined: /metrics on the API's own port. */
  port: number | undefined;
  /** JES_METRICS_TOKEN: the bearer token GET /metrics needs; undefined: open. */
  token: string | undefined;
}

export interface WebhookSettings {
  /** Hosts (names or addresses) a webhook may call although the address guard refuses them: JES_WEBHOOK_ALLOW_HOSTS. */
  allowHosts: ReadonlySet<string>;
  /** Attempts in flight at once per process: JES_WEBHOOK_CONCURRENCY. */
  concurrency: number;
  /**
   * The contract's retry schedule and 10 s per attempt. Not read from the environment: a test that cannot wait
   * minutes for a retry passes shorter ones in the Config it starts a server with, and nothing else should.
   */
  retryDelaysMs: readonly number[];
  attemptTimeoutMs: number;
}

/**
 * login: per client address and username; login_account: failed logins per username from any address;
 * login_address: failed logins per client address for any username; submit and default: per user.
 */
export const ratePolicies = ['login', 'login_account', 'login_address', 'submit', 'default'] as const;
export type RatePolicy = (typeof ratePolicies)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** A user as JES_USERS names it: with a password, or with its stored hash (core/password-hash.ts). */
export type ConfiguredUser = { name: string; password: string } | { name: string; hash: string };

/** A user name: what JES_USERS may name, and so what a token's `sub` may be. */
export const userNamePattern = /^[A-Za-z0-9._@-]{1,128}$/;

function parseUsers(raw: string | undefined): Config['users'] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const at = entry.indexOf(':');
    const name = entry.slice(0, at).trim();
    const password = entry.slice(at + 1);
    if (at <= 0 || !password || !userNamePattern.test(name)) {
      throw new ConfigError(
        `JES_USERS must be name:password[,name:password...], got an entry "${entry.split(':')[0]}:…"`,
      );
    }
    // A password of a stored hash's form is that hash (jes-server hash-password prints one); one that only begins
    // like one is refused rather than taken as a password the operator did not mean.
    if (!password.startsWith('scrypt$')) return { name, password };
    const stored = parseStoredHash(password);
    if (typeof stored === 'string') throw new ConfigError(`JES_USERS: ${name}'s stored hash is invalid: ${stored}`);
    return { name, hash: password };
  });
}

const defaultRateLimits = 'login=10/60,login_account=20/600,login_address=30/60,submit=60/60,default=1200/60';

function parseRateLimits(raw: string | undefined): Config['rateLimits'] {
  const text = raw?.trim() || defaultRateLimits;
  if (text === 'off') return undefined;
  const limits: Partial<Record<RatePolicy, RateLimit>> = {};
  for (const part of (defaultRateLimits + ',' + text).split(',')) {
    const match = /^([a-z_]+)=(\d+)\/(\d+)$/.exec(part.trim());
    if (!match || !ratePolicies.includes(match[1] as RatePolicy) || Number(match[2]) < 1 || Number(match[3]) < 1) {
      throw new ConfigError(
        `JES_RATE_LIMITS must be "off" or policy=requests/seconds[,...] with policies ${ratePolicies.join(', ')}; got "${text}"`,
      );
    }
    limits[match[1] as RatePolicy] = { limit: Number(match[2]), windowSeconds: Number(match[3]) };
  }
  return limits as Record<RatePolicy, RateLimit>;
}

/** JES_TRUST_PROXY in Express's own terms: true/false, a number of hops, or addresses, subnets and loopback/linklocal/uniquelocal. */
function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  const text = raw?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  for (const part of text.split(',').map((p) => p.trim())) {
    const [address, bits, ...rest] = part.split('/');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(part);
    const maxBits = isIP(address ?? '') === 4 ? 32 : 128;
    if (
      !named &&
      (rest.length > 0 ||
        !isIP(address ?? '') ||
        (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits)))
    ) {
      throw new ConfigError(
        `JES_TRUST_PROXY must be true, false, a number of hops, or a comma list of addresses, subnets, loopback, linklocal, uniquelocal; got "${part}"`,
      );
    }
  }
  return text;
}

/** HOST: an IPv4 or IPv6 address, or a name (`localhost`, a name of this machine) that the listen resolves. */
function parseHost(raw: string | undefined): string {
  const text = raw?.trim() || '127.0.0.1';
  if (!isIP(text) && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(text)) {
    throw new ConfigError(
      `HOST must be an address such as 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or ::, or a host name; got "${text}"`,
    );
  }
  return text;
}

/** JES_STORAGE_QUOTA_MIB: mebibytes of data files per user, a whole number from 1; or off. */
function parseStorageQuota(raw: string | undefined): number | undefined {
  const text = raw?.trim() || '1024';
  if (text === 'off') return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1)
    throw new ConfigError(`JES_STORAGE_QUOTA_MIB must be a whole number of MiB from 1, or off; got "${text}"`);
  return Number(text) * 1024 * 1024;
}

/** JES_RETENTION_DAYS: a number of days, decimals allowed (0.5 is twelve hours), up to a century; or off. */
function parseRetentionDays(raw: string | undefined): number | undefined {
  const text = raw?.trim() || '30';
  if (text === 'off') return undefined;
  const days = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(days > 0 && days <= 36_500))
    throw new ConfigError(
      `JES_RETENTION_DAYS must be a number of days above 0 and at most 36500 (decimals allowed), or off; got "${text}"`,
    );
  return days;
}

/**
 * A comma list of origins as a browser sends them in `Origin` (http or https, host, optional port; no path, not
 * even `/`), since an origin is matched by its exact text. Unset or empty: undefined.
 */
function parseOrigins(name: string, raw: string | undefined, also = ''): string[] | undefined {
  const text = raw?.trim() ?? '';
  if (text === '') return undefined;
  return text.split(',').map((entry) => {
    const origin = entry.trim();
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {}
    if (url?.origin !== origin || !['http:', 'https:'].includes(url.protocol)) {
      const hint = url && url.origin !== 'null' && url.origin !== origin ? ` (did you mean ${url.origin}?)` : '';
      throw new ConfigError(
        `${name} must be ${also}a comma list of origins like https://app.example.com:8443 (no path); got "${origin}"${hint}`,
      );
    }
    return origin;
  });
}

/** JES_CORS_ORIGINS: `*`, or a list of origins. Unset: none. */
const parseCorsOrigins = (raw: string | undefined): Config['corsOrigins'] =>
  raw?.trim() === '*' ? '*' : parseOrigins('JES_CORS_ORIGINS', raw, '* or ');

function httpLimits(env: NodeJS.ProcessEnv): Config['http'] {
  const headersTimeoutMs = integer('JES_HEADERS_TIMEOUT_SECONDS', env.JES_HEADERS_TIMEOUT_SECONDS, 20, 1, 3600) * 1000;
  // Receiving the whole request: 100 MiB in ten minutes is a link of 1.4 Mbit/s. (Answering, a long poll, is not counted.)
  const requestTimeoutMs =
    integer('JES_REQUEST_TIMEOUT_SECONDS', env.JES_REQUEST_TIMEOUT_SECONDS, 600, 1, 86_400) * 1000;
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('JES_HEADERS_TIMEOUT_SECONDS must not exceed JES_REQUEST_TIMEOUT_SECONDS');
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    // Longer than a load balancer's idle timeout (60 s on the common ones), so it, not we, closes idle connections.
    keepAliveTimeoutMs:
      integer('JES_KEEP_ALIVE_TIMEOUT_SECONDS', env.JES_KEEP_ALIVE_TIMEOUT_SECONDS, 65, 1, 3600) * 1000,
    maxConnections: integer('JES_MAX_CONNECTIONS', env.JES_MAX_CONNECTIONS, 1000, 1, 1_000_000),
    maxConnectionsPerAddress: integer(
      'JES_MAX_CONNECTIONS_PER_ADDRESS',
      env.JES_MAX_CONNECTIONS_PER_ADDRESS,
      100,
      1,
      1_000_000,
    ),
    maxWaitsPerUser: integer('JES_MAX_LONG_POLLS_PER_USER', env.JES_MAX_LONG_POLLS_PER_USER, 20, 0, 1_000_000),
    maxStreamsPerUser: integer('JES_MAX_STREAMS_PER_USER', env.JES_MAX_STREAMS_PER_USER, 50, 1, 1_000_000),
  };
}

/** JES_WEBHOOK_ALLOW_HOSTS: a comma list of host names and addresses (IPv6 with or without brackets). */
function allowHosts(raw: string | undefined): ReadonlySet<string> {
  const hosts = parseAllowHosts(raw);
  const name = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
  for (const host of hosts)
    if (!isIP(host) && !name.test(host))
      throw new ConfigError(
        `JES_WEBHOOK_ALLOW_HOSTS must be a comma list of host names or addresses (no scheme, port or path); got "${host}"`,
      );
  return hosts;
}

/** JES_CACHE_DIR: a folder, `off`, or unset for the user's cache folder (XDG_CACHE_HOME, else ~/.cache) + /jes. */
function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.JES_CACHE_DIR || undefined;
  if (given === 'off') return undefined;
  return given ?? join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'jes');
}

function metricsSettings(env: NodeJS.ProcessEnv): MetricsSettings {
  const enabled = env.JES_METRICS || 'on';
  if (enabled !== 'on' && enabled !== 'off') throw new ConfigError(`JES_METRICS must be on or off, got "${enabled}"`);
  const token = env.JES_METRICS_TOKEN || undefined;
  // What a header can carry as a bearer token (RFC 6750's b64token), so that the right one can be sent at all.
  if (token !== undefined && !/^[A-Za-z0-9._~+/-]+=*$/.test(token))
    throw new ConfigError(
      'JES_METRICS_TOKEN must be letters, digits and -._~+/ (a bearer token), with = at the end only',
    );
  return {
    enabled: enabled === 'on',
    port: env.JES_METRICS_PORT ? integer('JES_METRICS_PORT', env.JES_METRICS_PORT, 0, 0, 65535) : undefined,
    token,
  };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError(`DATABASE_URL must start with postgres://, got "${databaseUrl.split('@').pop()}"`);
  const jesEnv = env.JES_ENV || 'production';
  if (jesEnv !== 'production' && jesEnv !== 'sandbox')
    throw new ConfigError(`JES_ENV must be production or sandbox, got "${jesEnv}"`);
  const secret = env.JES_JWT_SECRET || undefined;
  if (secret !== undefined && Buffer.byteLength(secret) < 32)
    throw new ConfigError('JES_JWT_SECRET must be at least 32 bytes');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be a pino level, got "${logLevel}"`);
  const logFormat = env.JES_LOG_FORMAT || 'auto';
  if (logFormat !== 'auto' && logFormat !== 'json' && logFormat !== 'pretty')
    throw new ConfigError(`JES_LOG_FORMAT must be auto, json or pretty, got "${logFormat}"`);
  const validate = env.JES_VALIDATE_RESPONSES || 'on';
  if (validate !== 'on' && validate !== 'off')
    throw new ConfigError(`JES_VALIDATE_RESPONSES must be on or off, got "${validate}"`);
  return {
    port: integer('PORT', env.PORT, 3000, 0, 65535),
    host: parseHost(env.HOST),
    databaseUrl,
    dataDir: env.JES_DATA_DIR || './data',
    cacheDir: cacheDir(env),
    users: parseUsers(env.JES_USERS),
    jwtSecret: secret,
    workers: integer('JES_WORKERS', env.JES_WORKERS, availableParallelism(), 0, 256),
    executionThreads: integer('JES_EXECUTION_THREADS', env.JES_EXECUTION_THREADS, 256, 1, 256),
    env: jesEnv,
    rateLimits: parseRateLimits(env.JES_RATE_LIMITS),
    maxActiveJobs: integer('JES_MAX_ACTIVE_JOBS', env.JES_MAX_ACTIVE_JOBS, 50, 1, 1_000_000),
    logLevel,
    logFormat,
    validateResponses: validate === 'on',
    leaseSeconds: integer('JES_LEASE_SECONDS', env.JES_LEASE_SECONDS, 15, 2, 3600),
    drainSeconds: integer('JES_DRAIN_SECONDS', env.JES_DRAIN_SECONDS, 0, 0, 3600),
    trustProxy: parseTrustProxy(env.JES_TRUST_PROXY),
    storageQuotaBytes: parseStorageQuota(env.JES_STORAGE_QUOTA_MIB),
    minFreeDiskBytes: integer('JES_MIN_FREE_DISK_MIB', env.JES_MIN_FREE_DISK_MIB, 256, 0, 1_000_000) * 1024 * 1024,
    retentionDays: parseRetentionDays(env.JES_RETENTION_DAYS),
    corsOrigins: parseCorsOrigins(env.JES_CORS_ORIGINS),
    dashboardOrigins: parseOrigins('JES_DASHBOARD_ORIGINS', env.JES_DASHBOARD_ORIGINS) ?? [],
    http: httpLimits(env),
    webhooks: {
      allowHosts: allowHosts(env.JES_WEBHOOK_ALLOW_HOSTS),
      concurrency: integer('JES_WEBHOOK_CONCURRENCY', env.JES_WEBHOOK_CONCURRENCY, 16, 1, 1000),
      retryDelaysMs: webhookRetryDelaysMs,
      attemptTimeoutMs,
    },
    metrics: metricsSettings(env),
  };
}
