// The server's settings as a person reads them: each environment variable, its default and what it does, in one
// line. `jes-server --help` prints them; a test holds the README's Configuration table and config.ts to them (a
// documented default, set explicitly, reads as leaving the variable unset). config.ts reads and checks them.

export interface Setting {
  name: string;
  /** The default as written in help and the README; `value` when it is a value the variable can be set to. */
  shown: string;
  value?: string;
  meaning: string;
}

const valued = (name: string, value: string, meaning: string): Setting => ({ name, shown: value, value, meaning });
const described = (name: string, shown: string, meaning: string): Setting => ({ name, shown, meaning });

export const settings: readonly Setting[] = [
  valued('PORT', '3000', 'listen port (0: any free port; the URL is printed)'),
  valued('HOST', '127.0.0.1', 'address to listen on: 127.0.0.1 this machine only, 0.0.0.0 or :: every interface'),
  described('DATABASE_URL', 'unset', 'postgres://… shared by every process; unset: the embedded database'),
  valued('JES_DATA_DIR', './data', "the embedded database's folder; memory: for a throw-away one"),
  described(
    'JES_CACHE_DIR',
    '$XDG_CACHE_HOME/jes or ~/.cache/jes',
    'where a throw-away (memory:) database, or one in a new folder, finds the cluster it starts from, initialised and migrated once per PGlite version and schema; off',
  ),
  described(
    'JES_USERS',
    'unset',
    'name:password or name:hash (jes-server hash-password),… the whole list of users; unset keeps them (a first start makes demo)',
  ),
  described('JES_JWT_SECRET', 'generated and stored in the database', 'HS256 key for tokens, at least 32 bytes'),
  described('JES_WORKERS', 'CPU cores', 'solver threads in this process; 0 serves the API only'),
  described(
    'JES_EXECUTION_THREADS',
    'all of JES_WORKERS',
    'the most solver threads one execution may use (1: each runs on one thread)',
  ),
  valued('JES_ENV', 'production', 'production or sandbox; tokens carry it and are refused by the other'),
  valued(
    'JES_RATE_LIMITS',
    'login=10/60,login_account=20/600,login_address=30/60,submit=60/60,default=1200/60',
    'requests per window (seconds) per policy, replacing the policies named; off disables',
  ),
  valued('JES_TRUST_PROXY', 'false', "which proxies' X-Forwarded-For to believe: true, hops, addresses or subnets"),
  valued('JES_MAX_ACTIVE_JOBS', '50', 'jobs per user that have not ended'),
  valued(
    'JES_MIN_FREE_DISK_MIB',
    '256',
    "free MiB the embedded database's disk keeps in reserve: below it new jobs and uploads answer 507; 0 for none",
  ),
  valued(
    'JES_STORAGE_QUOTA_MIB',
    '1024',
    "MiB of data files one user may keep (INVALID files' bytes are not kept); off",
  ),
  valued('JES_RETENTION_DAYS', '30', 'days an ended job and an unused data file are kept (decimals allowed); off'),
  valued(
    'JES_LEASE_SECONDS',
    '15',
    "a worker's claim on an execution without renewal; a dead worker's work is retried after it",
  ),
  valued(
    'JES_DRAIN_SECONDS',
    '0',
    'on SIGTERM, seconds /readyz answers 503 while requests are still served, before the process stops (SIGINT: none)',
  ),
  valued('JES_HEADERS_TIMEOUT_SECONDS', '20', "time to receive a request's headers (then 408)"),
  valued('JES_REQUEST_TIMEOUT_SECONDS', '600', 'time to receive a whole request, body included'),
  valued('JES_KEEP_ALIVE_TIMEOUT_SECONDS', '65', 'how long an idle connection is kept open'),
  valued('JES_MAX_CONNECTIONS', '1000', 'open connections per process; beyond it new ones are closed at once'),
  valued(
    'JES_MAX_CONNECTIONS_PER_ADDRESS',
    '100',
    "open connections one client address may hold (a trusted proxy's are not counted)",
  ),
  valued(
    'JES_MAX_LONG_POLLS_PER_USER',
    '20',
    'Prefer: wait long polls open at once per user (in all: half of JES_MAX_CONNECTIONS); beyond, answered at once',
  ),
  valued(
    'JES_MAX_STREAMS_PER_USER',
    '50',
    'event streams (GET /job/{job_id}/events, GET /events) open at once per user; beyond, 429 too_many_streams',
  ),
  described('JES_CORS_ORIGINS', 'unset', 'origins whose pages may call the API (https://app.example.com,…), or *'),
  described(
    'JES_DASHBOARD_ORIGINS',
    'unset',
    'services on other origins the dashboard at /app may reach (http://localhost:4010,…); unset: its own only',
  ),
  described(
    'JES_WEBHOOK_ALLOW_HOSTS',
    'unset',
    'hosts or addresses (127.0.0.1,hooks.internal,…) webhooks may call although private, loopback or link-local',
  ),
  valued('JES_WEBHOOK_CONCURRENCY', '16', 'webhook attempts in flight at once per process'),
  valued('JES_METRICS', 'on', 'Prometheus metrics at GET /metrics (docs/metrics.md); off: none are kept'),
  described(
    'JES_METRICS_PORT',
    'unset',
    'a second listener on HOST:this port (0: any free port) for /metrics, /healthz and /readyz, in API and worker processes',
  ),
  described('JES_METRICS_TOKEN', 'unset', 'GET /metrics then needs Authorization: Bearer <this token>'),
  valued('JES_VALIDATE_RESPONSES', 'on', 'validate every response against the contract; off skips the cost'),
  valued('LOG_LEVEL', 'info', 'pino level: fatal, error, warn, info, debug, trace, silent'),
  valued('JES_LOG_FORMAT', 'auto', 'json, pretty, or auto: pretty on a terminal, else json'),
];

/** The settings as a table of lines, for --help. */
export function settingsTable(): string {
  const width = Math.max(...settings.map((s) => s.name.length)) + 2;
  return settings
    .map((s) => `  ${s.name.padEnd(width)}${s.meaning}\n  ${' '.repeat(width)}(default: ${s.shown})`)
    .join('\n');
}
