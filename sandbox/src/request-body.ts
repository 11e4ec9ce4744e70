// The body of an operation that takes one, as Prism should see it, or the answer that refuses it, in the
// reference server's order: what the headers alone settle first (415 for a Content-Encoding, media type or
// charset it does not take), then the bytes read and decoded (413 past the operation's limit, 400 if they do
// not decode), then their content (400: JSON that does not parse, a form that cannot be read or has a part
// without a name, a value no deployment can store).
import type { IncomingMessage } from 'node:http';
import { charsetOf, codingOf, drain, isUtf8, mediaTypeOf, readBody, withoutBom } from './body.ts';
import { type Answer, type FieldError, invalidRequest, problem, problemAnswer } from './conventions.ts';
import { formForPrism, readForm } from './form.ts';
import type { Operation } from './mock.ts';
import { startsJob } from '@jes/contract/node';
import { unacceptableValue } from './value-limits.ts';

/** The contract's body limits: login below 64 KiB, an inline job below 4 MiB; anything else stops at 16 MiB here. */
function maxBytes(operation: Operation): number {
  if (operation.iid === 'login') return 65_536;
  if (startsJob(operation.iid)) return 4_194_304;
  return 16 * 1024 * 1024;
}

/**
 * The body for Prism, with the request headers that describe it now (and a form's named text parts and file), and
 * its decoded bytes; or the refusal.
 */
export type Taken =
  | { body: unknown; headers: Record<string, string>; raw?: Buffer; fields?: Record<string, string>; file?: Buffer }
  | { refused: Answer };

const refused = (answer: Answer): Taken => ({ refused: answer });
const invalid = (detail: string, instance: string) =>
  refused(problemAnswer(problem('invalid_request', detail, instance)));
const mismatch = (instance: string, error: FieldError) => refused(invalidRequest(instance, [error]));

/** What the headers alone refuse (415), if anything. */
function unsupported(req: IncomingMessage, operation: Operation): string | undefined {
  const contents = operation.request?.body?.contents ?? [];
  const contentType = req.headers['content-type'];
  const type = mediaTypeOf(contentType);
  const charset = charsetOf(contentType);
  if (!codingOf(req.headers['content-encoding'])) {
    return `The Content-Encoding must be identity, gzip, deflate or br, not "${req.headers['content-encoding']}".`;
  }
  if (!contents.some((c) => c.mediaType === type)) {
    // What to send, in the reference server's words (server/src/http/media-types.ts): curl -d sends
    // application/x-www-form-urlencoded unless told otherwise.
    const accepted = contents.map((c) => c.mediaType);
    const send =
      accepted[0] === 'multipart/form-data'
        ? 'Send the body as multipart/form-data (with curl: -F name=value, not -d).'
        : `Send Content-Type: ${accepted[0]} (with curl: -H 'Content-Type: ${accepted[0]}').`;
    return `This operation accepts ${accepted.join(', ')}; the request ${type ? `was sent as ${type}` : 'has no Content-Type'}. ${send}`;
  }
  if (type === 'application/json' && !isUtf8(charset)) return `JSON bodies must be UTF-8, not "${charset}".`;
  return undefined;
}

export async function takeBody(req: IncomingMessage, operation: Operation, instance: string): Promise<Taken> {
  const refusal = unsupported(req, operation);
  if (refusal) {
    await drain(req);
    return refused(problemAnswer(problem('unsupported_media_type', refusal, instance)));
  }
  const type = mediaTypeOf(req.headers['content-type']);
  const coding = codingOf(req.headers['content-encoding'])!;
  const limit = maxBytes(operation);
  const read = await readBody(req, coding, limit);
  if ('tooLarge' in read) {
    const tooLarge = problem('payload_too_large', `The body must be smaller than ${limit} bytes.`, instance);
    return refused(problemAnswer({ ...tooLarge, max_bytes: limit }));
  }
  if ('undecodable' in read) {
    return invalid(`The body cannot be decoded (Content-Encoding: ${coding}): ${read.undecodable}.`, instance);
  }
  // Prism is shown the decoded body, and its media type alone.
  const headers = { 'content-type': type, 'content-length': String(read.bytes.length) };
  if (!read.bytes.length) return { body: undefined, headers };

  if (type === 'multipart/form-data') {
    const form = await readForm(req.headers['content-type']!, read.bytes);
    if ('unreadable' in form) return invalid(`The multipart body cannot be read: ${form.unreadable}.`, instance);
    // The pointer of a member with an empty name is "/" (RFC 6901).
    if (form.namelessFile || form.fields.some(([name]) => name === undefined)) {
      return mismatch(instance, { pointer: '/', detail: 'every part must have a name' });
    }
    const fields = Object.fromEntries(form.fields as [string, string][]);
    const found = unacceptableValue(fields);
    if (found) return mismatch(instance, found);
    const schema = operation.request?.body?.contents?.find((c) => c.mediaType === type)?.schema as {
      properties?: object;
    };
    const rewritten = formForPrism(form, Object.keys(schema?.properties ?? {}));
    const length = String(Buffer.byteLength(rewritten.body));
    return {
      body: rewritten.body,
      headers: { 'content-type': rewritten.contentType, 'content-length': length },
      fields,
      ...(form.file ? { file: form.file } : {}),
    };
  }
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(withoutBom(read.bytes).toString('utf8'));
    } catch (error) {
      return refused(
        problemAnswer(problem('malformed_json', `The body is not valid JSON (${(error as Error).message}).`, instance)),
      );
    }
    const found = unacceptableValue(body);
    return found ? mismatch(instance, found) : { body, headers, raw: read.bytes };
  }
  // Another media type the contract may name one day: its text, for Prism to judge.
  return { body: read.bytes.toString('utf8'), headers };
}
