// The jes dashboard: a page per route of the URL's fragment, each reading the service through @jes/client.
// Without a token every page but log-in sends you to log in. A link naming another service is asked about first.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ConfirmServicePage } from './pages/confirm-service.tsx';
import { DataFilesPage } from './pages/data-files.tsx';
import { JobPage } from './pages/job.tsx';
import { JobsPage } from './pages/jobs.tsx';
import { LoginPage } from './pages/login.tsx';
import { NewJobPage } from './pages/new-job.tsx';
import { UseCasePage, UseCasesPage } from './pages/use-cases.tsx';
import { go, useRoute } from './route.ts';
import { linkedService } from './service-link.ts';
import { token } from './session.ts';
import './style.css';

function App() {
  const { parts, query } = useRoute();
  const [section, id] = parts;
  const [offered, setOffered] = useState(linkedService);
  const loggedIn = token() !== undefined;
  useEffect(() => {
    if (offered) return;
    if (!loggedIn && section !== 'login') go('/login');
    else if (loggedIn && !section) go('/use-cases');
  }, [offered, loggedIn, section]);
  if (offered) return <ConfirmServicePage api={offered} done={() => setOffered(undefined)} />;
  if (!loggedIn || section === 'login') return <LoginPage />;
  switch (section) {
    case 'use-cases':
      return id ? <UseCasePage id={id} /> : <UseCasesPage />;
    case 'new':
      return <NewJobPage key={id} id={id ?? 'maxcut'} dataFile={query.get('data_file') ?? undefined} />;
    case 'jobs':
      // Keyed by the job: another job's page starts afresh (its samples, its long poll).
      return id ? <JobPage key={id} id={id} /> : <JobsPage query={query} />;
    case 'data-files':
      return <DataFilesPage id={id} />;
    default:
      return <UseCasesPage />;
  }
}

render(<App />, document.getElementById('app')!);
