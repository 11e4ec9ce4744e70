// Log in: the service's URL (this page's origin by default), a username and a password. The token is kept for
// this tab only; a notice left by an ended session is shown above the form.
import type { Problem } from '@jes/client';
import { createJesClient } from '@jes/client';
import { useState } from 'preact/hooks';
import { ProblemBox } from '../parts/problem-box.tsx';
import { go } from '../route.ts';
import { logIn, serviceUrl, takeNotice } from '../session.ts';
import { settled } from '../use-call.ts';

export function LoginPage() {
  const [notice] = useState(takeNotice);
  const [api, setApi] = useState(serviceUrl);
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = String(form.get('username'));
    const password = String(form.get('password'));
    setBusy(true);
    const answer = await settled(() => createJesClient({ baseUrl: api }).login({ username, password }));
    setBusy(false);
    if (answer.data) {
      logIn(api, answer.data.access_token);
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
          <input name="api" type="url" required value={api} onInput={(e) => setApi(e.currentTarget.value)} />
        </label>
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
