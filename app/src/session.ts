// Who the dashboard talks to and as whom, kept for this tab only (sessionStorage): the service's URL, this page's
// own origin unless the user chose another (on the log-in form, or by confirming a link's `?api=`: service-link.ts),
// and the bearer token with the URL it was issued for. A token is sent to that URL only: whatever changes the
// service, a session never goes to another origin with it.
import { createJesClient, type JesClient, type Problem } from '@jes/client';
import { type Progress, xhrFetch } from './xhr-fetch.ts';
import { go } from './route.ts';

const keys = { api: 'jes.api', session: 'jes.session', notice: 'jes.notice' } as const;

/** The service that served this page (a page opened from a file has none: the default local server). */
export const ownService = location.protocol.startsWith('http') ? location.origin : 'http://localhost:3000';

/** The service in use: the one chosen for this tab, or the page's own. */
export const serviceUrl = (): string => sessionStorage.getItem(keys.api) ?? ownService;

/** Makes `api` the service of this tab (the user chose it). A token of another service stays unused. */
export function chooseService(api: string): void {
  sessionStorage.setItem(keys.api, api);
}

/** A service URL as kept: http or https, without credentials, query, fragment or trailing slash; else undefined. */
export function serviceUrlOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) return undefined;
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

/** The token, when the service in use issued it; never another service's. */
export function token(): string | undefined {
  const kept = sessionStorage.getItem(keys.session);
  if (kept === null) return undefined;
  const session = JSON.parse(kept) as { api: string; token: string };
  return session.api === serviceUrl() ? session.token : undefined;
}

/** The client of the session; `onProgress` (an upload's) sends through XMLHttpRequest, which reports it. */
export function client(onProgress?: Progress): JesClient {
  return onProgress ? clientThrough(xhrFetch(onProgress)) : clientThrough();
}

/** The client of the session, sending through `fetch` when given (a stream's, which tells when one opens). */
export function clientThrough(fetch?: (request: Request) => Promise<Response>): JesClient {
  const current = token();
  return createJesClient({
    baseUrl: serviceUrl(),
    ...(current !== undefined ? { token: current } : {}),
    ...(fetch ? { fetch } : {}),
  });
}

/** Keeps the token `api` issued, bound to it, and makes `api` the service in use. */
export function logIn(api: string, accessToken: string): void {
  chooseService(api);
  sessionStorage.setItem(keys.session, JSON.stringify({ api, token: accessToken }));
}

/** Forgets the token and goes to the log-in page, which shows `notice`. */
export function logOut(notice?: string): void {
  sessionStorage.removeItem(keys.session);
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
