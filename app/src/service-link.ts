// A link may name the service to use: `/app/?api=http://localhost:4010` (the sandbox, say). It is only an offer: the
// page asks the user first, showing the origin (pages/confirm-service.tsx), since anyone can send such a link, and a
// tab that followed it at once would send the password typed next, or the token it holds, to whoever wrote it.
import { serviceUrl, serviceUrlOf } from './session.ts';

/** The service a link asks for, when it is another than the one in use; anything else is taken off the address. */
export function linkedService(): string | undefined {
  const given = new URLSearchParams(location.search).get('api');
  if (given === null) return undefined;
  const api = serviceUrlOf(given);
  if (api !== undefined && api !== serviceUrl()) return api;
  dropLink();
  return undefined;
}

/** Takes `?api=` off the address, so that a reload or a bookmark does not offer it again. */
export function dropLink(): void {
  const url = new URL(location.href);
  url.searchParams.delete('api');
  history.replaceState(history.state, '', url);
}
