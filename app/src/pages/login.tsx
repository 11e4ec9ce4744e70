// Log in: the service's URL (this page's origin by default, never one a link set without asking), a username and
// a password, with the origin they go to in plain words. The token is kept for this tab only, bound to the service
// that issued it; a notice left by an ended session is shown above the form.
import type { Problem } from '@jes/client';
import { createJesClient } from '@jes/client';
import { useState } from 'preact/hooks';
import { ProblemBox } from '../parts/problem-box.tsx';
import { go } from '../route.ts';
import { logIn, serviceUrl, serviceUrlOf, takeNotice } from '../session.ts';
import { settled } from '../use-call.ts';

export function LoginPage() {
  const [notice] = useState(takeNotice);
  const [api, setApi] = useState(serviceUrl);
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const service = serviceUrlOf(api);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = String(form.get('username'));
    const password = String(form.get('password'));
    if (service === undefined) return;
    setBusy(true);
    const answer = await settled(() => createJesClient({ baseUrl: service }).login({ username, password }), service);
    setBusy(false);
    if (answer.data) {
      logIn(service, answer.data.access_token);
      go('/use-cases');
    } else if (answer.error) setProblem(answer.error);
  };

  return (
    <main class="login">
      <h1>Log in to jes</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit}>
        <label>
          Service URL
          <input
            name="api"
            type="url"
            required
            value={api}
            aria-describedby="goes-to"
            onInput={(e) => setApi(e.currentTarget.value)}
          />
        </label>
        <p id="goes-to" class="hint">
          {service === undefined
            ? 'An http or https URL, without a user name or password in it.'
            : `Your username and password go to ${new URL(service).origin}.`}
        </p>
        <label>
          Username
          <input name="username" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      {problem && <ProblemBox problem={problem} />}
    </main>
  );
}
