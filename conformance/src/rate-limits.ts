// Pacing by the deployment's own rate-limit headers (IETF draft-ietf-httpapi-ratelimit-headers, the structured
// form of draft 08 on): each answer names the policies it counted against, with what remains of each quota (`r`)
// and the seconds until it resets (`t`), and in RateLimit-Policy the quota (`q`), window (`w`) and partition
// (`pk`). A request of a kind (method, operation, user) whose policy has nothing left waits for the reset instead
// of earning a 429. A deployment that sends no such headers is never waited for here (its 429s still are, in
// http.ts). The clock is passed in so that the bookkeeping can be tested without waiting.

/** One member of a structured-field list: `"submit"; r=59; t=60` → name submit, params {r: 59, t: 60}. */
interface Item {
  name: string;
  params: Record<string, string | number>;
}

/** The members of a structured-field list header (RFC 8941), as far as rate-limit fields use them. */
export function parseList(header: string | undefined): Item[] {
  const items: Item[] = [];
  // Members are split on commas and parameters on semicolons outside quoted strings.
  for (const member of header?.match(/(?:"(?:[^"\\]|\\.)*"|[^,"])+/g) ?? []) {
    const [first, ...rest] = member.match(/(?:"(?:[^"\\]|\\.)*"|[^;"])+/g) ?? [];
    const name = first
      ?.trim()
      .replace(/^"((?:[^"\\]|\\.)*)"$/, '$1')
      .replace(/\\(.)/g, '$1');
    if (!name) continue;
    const params: Record<string, string | number> = {};
    for (const param of rest) {
      const [key, value = ''] = param.trim().split(/=(.*)/s);
      if (key) params[key.trim()] = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value.trim();
    }
    items.push({ name, params });
  }
  return items;
}

interface Policy {
  name: string;
  quota: number | undefined;
  windowSeconds: number | undefined;
  /** What the deployment last said remains: the lowest count of the current window (or its whole quota, once it reset). */
  remaining: number;
  /** When the quota resets on this clock; undefined when no answer of the current window has said yet. */
  resetAt: number | undefined;
  /** When the current window began here: answers to requests sent before are of a window that is over. */
  since: number;
  /** Requests sent against it and not yet answered. */
  inFlight: number;
}

/** Why and how long a request waits: the policy with nothing left, and when it resets. */
export interface PolicyWait {
  policy: string;
  quota: number | undefined;
  windowSeconds: number | undefined;
  ms: number;
}

/** What a request counts against: handed back with its answer. */
export interface Reservation {
  keys: string[];
  at: number;
}

/** Two reset instants this close are the same window (`t` is whole seconds, and answers take time to arrive). */
const sameWindowMs = 2000;

export class RateLimits {
  /** Keyed by name and partition: "submit" of one user is not "submit" of another. */
  private readonly policies = new Map<string, Policy>();
  /** The policies the last answer to each kind of request named. */
  private readonly kinds = new Map<string, string[]>();
  private readonly now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /**
   * Resolves when a request of `kind` may go out, its policies' quotas counting it. Each time a policy has
   * nothing left, `wait` is asked to wait for its reset: it resolves to false to send the request all the same.
   * Resolves to what to hand to `answered` with the answer.
   */
  async reserve(kind: string, wait: (until: PolicyWait) => Promise<boolean>): Promise<Reservation> {
    let keys: string[];
    for (;;) {
      // Read again after a wait: an answer meanwhile may have named other policies.
      keys = this.kinds.get(kind) ?? [];
      const now = this.now();
      let longest: PolicyWait | undefined;
      for (const policy of keys.map((key) => this.policies.get(key)!)) {
        if (policy.resetAt !== undefined && now >= policy.resetAt) {
          // A new window: whole again, as far as we know until an answer says.
          policy.remaining = policy.quota ?? Infinity;
          policy.resetAt = undefined;
          policy.since = now;
        }
        if (policy.remaining - policy.inFlight > 0 || policy.resetAt === undefined) continue;
        const ms = policy.resetAt - now;
        if (!longest || ms > longest.ms)
          longest = { policy: policy.name, quota: policy.quota, windowSeconds: policy.windowSeconds, ms };
      }
      if (!longest || !(await wait(longest))) break;
    }
    for (const key of keys) this.policies.get(key)!.inFlight++;
    return { keys, at: this.now() };
  }

  /** Reads an answer's RateLimit and RateLimit-Policy headers (undefined: no answer came). */
  answered(kind: string, reserved: Reservation, headers: Record<string, string> | undefined): void {
    for (const key of reserved.keys) this.policies.get(key)!.inFlight--;
    if (!headers) return;
    const now = this.now();
    const declared = new Map(parseList(headers['ratelimit-policy']).map((item) => [item.name, item.params]));
    const named: string[] = [];
    for (const { name, params } of parseList(headers.ratelimit)) {
      const { r, t } = params;
      if (typeof r !== 'number' || typeof t !== 'number') continue;
      const policy = declared.get(name) ?? {};
      const key = `${name} ${params.pk ?? policy.pk ?? ''}`;
      named.push(key);
      const state = this.policies.get(key) ?? {
        name,
        quota: undefined,
        windowSeconds: undefined,
        remaining: Infinity,
        resetAt: undefined,
        since: -Infinity,
        inFlight: 0,
      };
      this.policies.set(key, state);
      if (typeof policy.q === 'number') state.quota = policy.q;
      if (typeof policy.w === 'number') state.windowSeconds = policy.w;
      const resetAt = now + t * 1000;
      if (reserved.at < state.since) continue; // Counted in a window that is over.
      if (state.resetAt === undefined || resetAt > state.resetAt + sameWindowMs) {
        state.remaining = r;
        state.resetAt = resetAt;
      } else if (resetAt >= state.resetAt - sameWindowMs) {
        // The same window: answers may arrive out of order, and the lowest count is the latest.
        state.remaining = Math.min(state.remaining, r);
        state.resetAt = Math.min(state.resetAt, resetAt);
      }
      // Else the answer says the window ended earlier than another did: nothing to learn.
    }
    if (named.length) this.kinds.set(kind, named);
  }
}
