// Bearer authentication as the reference server decides it, before a body is read: no Authorization header
// (or an empty one) is `missing_token`, one that is not `Bearer <token>` is `invalid_token`. The stateless sandbox
// never looks at the token itself (any well-formed one will do); the stateful one refuses a token it did not give.
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
  return invalidToken(malformed, instance);
}

function invalidToken(detail: string, instance: string): Answer {
  const description = detail.replaceAll('"', "'");
  const header = `${challenge}, error="invalid_token", error_description="${description}"`;
  return problemAnswer(problem('invalid_token', detail, instance), { 'WWW-Authenticate': header });
}

/** The stateful sandbox's answer to a token it did not give (or that expired, or that a reset forgot). */
export const unknownToken = (instance: string): Answer =>
  invalidToken('The access token is not one this sandbox gave, or it has expired; log in again.', instance);
