// The frame of every page but log-in: the navigation, the service in use, and log out.
import type { ComponentChildren } from 'preact';
import { href } from '../route.ts';
import { logOut, serviceUrl } from '../session.ts';

/** Each section: its name (a page's `section`), where its link goes, and its label. */
const sections = [
  ['use-cases', '/use-cases', 'Use cases'],
  ['new', '/new/maxcut', 'New job'],
  ['jobs', '/jobs', 'Jobs'],
  ['data-files', '/data-files', 'Data files'],
] as const;

export function Layout({ section, title, children }: { section: string; title: string; children: ComponentChildren }) {
  return (
    <>
      <header class="top">
        <a class="brand" href={href('/use-cases')}>
          jes dashboard
        </a>
        <nav aria-label="Sections">
          {sections.map(([id, path, label]) => (
            <a key={id} href={href(path)} aria-current={section === id ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="service" title="The service this dashboard talks to">
          {serviceUrl()}
        </span>
        <button type="button" class="link" onClick={() => logOut()}>
          Log out
        </button>
      </header>
      <main>
        <h1>{title}</h1>
        {children}
      </main>
    </>
  );
}
