// Answers that are not the API's own: a proxy's error page or an empty body still become problems with a
// code, and Retry-After is read in both of its forms.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatProblem, toProblem } from '../src/index.ts';
import { retryAfterMs } from '../src/wait.ts';

describe('toProblem', () => {
  it('keeps an API problem as it is', () => {
    const problem = {
      type: 'urn:jes:problem:job_not_found',
      title: 'Job not found',
      status: 404,
      detail: 'No job X exists for this user.',
      code: 'job_not_found',
    };
    expect(toProblem(problem, new Response(null, { status: 404 }))).toBe(problem);
    expect(formatProblem(problem)).toBe('job_not_found: No job X exists for this user.');
  });

  it('makes one from a body that is not a problem, with code http_<status>', () => {
    const fromHtml = toProblem(
      '<html>Bad gateway</html>',
      new Response(null, { status: 502, statusText: 'Bad Gateway' }),
    );
    expect(fromHtml).toMatchObject({
      status: 502,
      title: 'Bad Gateway',
      code: 'http_502',
      detail: '<html>Bad gateway</html>',
    });
    const fromNothing = toProblem(undefined, new Response(null, { status: 503 }));
    expect(formatProblem(fromNothing)).toBe('http_503: The server answered 503 without a problem body.');
  });
});

describe('retryAfterMs', () => {
  const after = (value: string) => retryAfterMs(new Response(null, { status: 429, headers: { 'Retry-After': value } }));
  afterEach(() => vi.useRealTimers());
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    // The clock is set (Date only), so an HTTP date is exact, across a year's end, whenever the test runs.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-12-31T23:59:58Z') });
    expect(after('17')).toBe(17_000);
    expect(after('Fri, 01 Jan 2027 00:00:03 GMT')).toBe(5000);
    expect(after('Thu, 31 Dec 2026 23:00:00 GMT')).toBe(0);
    expect(after('soon')).toBeUndefined();
    expect(retryAfterMs(new Response(null, { status: 429 }))).toBeUndefined();
  });
});
