// Reading from the service in a page: the latest answer of a call, again whenever its inputs change. A refused
// token ends the session (session.ts); any other problem is the page's to show.
import type { Problem, Result } from '@jes/client';
import { useEffect, useState } from 'preact/hooks';
import { endedSession, serviceUrl } from './session.ts';

export type Loaded<T> =
  { data: T; error?: undefined } | { data?: undefined; error: Problem } | { data?: undefined; error?: undefined };

/**
 * Problems of the network (the service unreachable) as a problem, so pages show them the same way. A service on
 * another origin may also be one the page's policy does not let it reach, which a script cannot tell from the rest.
 */
export function networkProblem(error: unknown, service: string): Problem {
  const elsewhere =
    new URL(service).origin === location.origin
      ? ''
      : ` And is it one this dashboard may reach? Its server lists them in JES_DASHBOARD_ORIGINS.`;
  return {
    type: 'about:blank',
    title: 'The service could not be reached',
    status: 0,
    code: 'network_error',
    detail: `${(error as Error)?.message ?? String(error)}. Is the service running, and does it allow this page's origin (CORS)?${elsewhere}`,
  };
}

/** Runs `call` (to `service`) and settles its result, with the session's end handled. */
export async function settled<T>(call: () => Promise<Result<T>>, service = serviceUrl()): Promise<Loaded<T>> {
  try {
    const result = await call();
    if (result.error) return endedSession(result.error) ? {} : { error: result.error };
    return { data: result.data as T };
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') return {};
    return { error: networkProblem(error, service) };
  }
}

/** One page of a listing (the client's page generators always yield at least one), the generator then closed. */
export async function onePage<T>(pages: AsyncGenerator<Result<T>, void, undefined>): Promise<Result<T>> {
  const first = await pages.next();
  await pages.return();
  return first.value!;
}

export function useCall<T>(call: () => Promise<Result<T>>, inputs: unknown[]): Loaded<T> & { reload(): void } {
  const [state, setState] = useState<Loaded<T>>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    void settled(call).then((loaded) => live && setState(loaded));
    return () => {
      live = false;
    };
  }, [...inputs, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}
