// The dashboard's pages are addressed by the URL's fragment (#/jobs/K7Q2…), so the same files work wherever
// they are served from (the server's /app/, a file on disk) and every page can be linked to and reloaded.
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** The path segments: `#/jobs/K7Q2` is ['jobs', 'K7Q2']. */
  parts: string[];
  query: URLSearchParams;
}

export function current(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const at = hash.indexOf('?');
  const path = at < 0 ? hash : hash.slice(0, at);
  return {
    parts: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(at < 0 ? '' : hash.slice(at + 1)),
  };
}

export const href = (path: string) => `#${path}`;

export function go(path: string): void {
  location.hash = path;
}

/** The route, followed as the fragment changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const changed = () => setRoute(current());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
