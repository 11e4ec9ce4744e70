// Who the dashboard talks to and as whom: the service's URL and the bearer token, kept for this tab only
// (sessionStorage). Served by the reference server the service is its own origin; `?api=<url>` (or the log-in
// form) points it elsewhere, at the sandbox for one, which allows any origin.
import { createJesClient, type JesClient, type Problem } from '@jes/client';
import { type Progress, xhrFetch } from './xhr-fetch.ts';
import { go } from './route.ts';

const keys = { api: 'jes.api', token: 'jes.token', notice: 'jes.notice' } as const;

/** The service's URL: `?api=` of the page, the one chosen at log-in, or the page's own origin. */
export function serviceUrl(): string {
  const given = new URLSearchParams(location.search).get('api');
  if (given) return given.replace(/\/+$/, '');
  return (
    sessionStorage.getItem(keys.api) ??
    (location.protocol.startsWith('http') ? location.origin : 'http://localhost:3000')
  );
}

export const token = () => sessionStorage.getItem(keys.token) ?? undefined;

/** The client of the session; `onProgress` (an upload's) sends through XMLHttpRequest, which reports it. */
export function client(onProgress?: Progress): JesClient {
  const current = token();
  return createJesClient({
    baseUrl: serviceUrl(),
    ...(current !== undefined ? { token: current } : {}),
    ...(onProgress ? { fetch: xhrFetch(onProgress) } : {}),
  });
}

export function logIn(api: string, accessToken: string): void {
  sessionStorage.setItem(keys.api, api.replace(/\/+$/, ''));
  sessionStorage.setItem(keys.token, accessToken);
}

/** Forgets the token and goes to the log-in page, which shows `notice`. */
export function logOut(notice?: string): void {
  sessionStorage.removeItem(keys.token);
  if (notice) sessionStorage.setItem(keys.notice, notice);
  go('/login');
}

/** The notice left for the log-in page, once. */
export function takeNotice(): string | undefined {
  const notice = sessionStorage.getItem(keys.notice) ?? undefined;
  sessionStorage.removeItem(keys.notice);
  return notice;
}

/** A refused token ends the session: back to log in, with the service's reason. True when it did. */
export function endedSession(problem: Problem | undefined): boolean {
  if (problem?.code !== 'invalid_token') return false;
  logOut(`Your session ended (${problem.detail}). Log in again.`);
  return true;
}
