// Bearer authentication as the reference server decides it, before a body is read: no Authorization header
// (or an empty one) is `missing_token`, one that is not `Bearer <token>` is `invalid_token`, and the token
// itself is never looked at, since the sandbox accepts any well-formed one.
import { type Answer, problem, problemAnswer } from './conventions.ts';

export const challenge = 'Bearer realm="jes"';
const missing = 'This operation needs an Authorization: Bearer <access_token> header; get a token with POST /login.';
const malformed = 'The Authorization header must be "Bearer <access_token>".';

/** The token of a well-formed `Authorization: Bearer <token>` (the scheme in any case), else the refusal. */
export function bearerToken(authorization: string | undefined, instance: string): { token: string } | Answer {
  if (!authorization)
    return problemAnswer(problem('missing_token', missing, instance), { 'WWW-Authenticate': challenge });
  const token = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  if (token) return { token };
  const description = malformed.replaceAll('"', "'");
  const header = `${challenge}, error="invalid_token", error_description="${description}"`;
  return problemAnswer(problem('invalid_token', malformed, instance), { 'WWW-Authenticate': header });
}
