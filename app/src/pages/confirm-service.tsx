// The answer to a link naming another service (service-link.ts): the origin it names, what going there means, and
// a choice, staying being the default. Going there, the tab is logged out there (its token stays with the service
// that issued it: session.ts), and the service must be one this server's dashboard may reach (JES_DASHBOARD_ORIGINS).
import { chooseService, serviceUrl } from '../session.ts';
import { dropLink } from '../service-link.ts';

export function ConfirmServicePage({ api, done }: { api: string; done: () => void }) {
  const origin = new URL(api).origin;
  const current = new URL(serviceUrl()).origin;
  const answer = (go: boolean) => {
    if (go) chooseService(api);
    dropLink();
    done();
  };
  return (
    <main class="login">
      <h1>Use another service?</h1>
      <p>
        This link asks the dashboard to talk to <strong>{origin}</strong>
        {api !== origin && (
          <>
            {' '}
            (<code>{api}</code>)
          </>
        )}{' '}
        instead of {current}.
      </p>
      <p>
        If you log in there, your username and password go to {origin}. Your session with {current} is not sent to it.
        Go there only if you know and trust it.
      </p>
      <button type="button" onClick={() => answer(false)}>
        Stay with {current}
      </button>
      <button type="button" class="link" onClick={() => answer(true)}>
        Use {origin}
      </button>
    </main>
  );
}
