// Addresses a user has logged in from, remembered for 30 days (in this process), so that the per-account limit on
// failed logins (login_account) does not lock the user out where they have logged in before: 20 wrong passwords
// for alice, from anywhere, refused alice's right one for 10 minutes (issue 27). It is OWASP's device-cookie
// defence, by address: bearer tokens bring no cookie. The per-address limits still count every try.
import { boundedCache } from '../core/bounded-cache.ts';

const rememberedMs = 30 * 86_400_000;

export interface KnownAddresses {
  remember(user: string, address: string): void;
  knows(user: string, address: string): boolean;
}

export function knownAddresses(now: () => number = Date.now): KnownAddresses {
  const seen = boundedCache<string, number>({
    maxEntries: 100_000,
    maxBytes: 16 * 1024 * 1024,
    sizeOf: (key) => 2 * key.length + 64,
  });
  const key = (user: string, address: string) => `${user}\0${address}`;
  return {
    remember: (user, address) => seen.set(key(user, address), now()),
    knows(user, address) {
      const at = seen.get(key(user, address));
      return at !== undefined && now() - at < rememberedMs;
    },
  };
}
