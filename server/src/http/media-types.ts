// What a 415 says: the media types the operation accepts, what the request was sent as, and what to send
// instead. curl -d sends application/x-www-form-urlencoded unless told otherwise, the commonest way to meet it.
// The sandbox says the same (sandbox/src/request-body.ts; test/support/media-types.ts).

/** The media type of a Content-Type, lower case and without parameters; undefined when there is none. */
const mediaTypeOf = (contentType: string | undefined): string | undefined =>
  contentType?.split(';')[0]!.trim().toLowerCase() || undefined;

/** The detail of a 415 from an operation that accepts `accepted`. */
export function unsupportedMediaType(accepted: string[], contentType: string | undefined): string {
  const sent = mediaTypeOf(contentType);
  const send =
    accepted[0] === 'multipart/form-data'
      ? 'Send the body as multipart/form-data (with curl: -F name=value, not -d).'
      : `Send Content-Type: ${accepted[0]} (with curl: -H 'Content-Type: ${accepted[0]}').`;
  return `This operation accepts ${accepted.join(', ')}; the request ${sent ? `was sent as ${sent}` : 'has no Content-Type'}. ${send}`;
}
