// JSON request bodies: sent plain or gzip, deflate or br encoded (anything else is 415); UTF-8 only (another
// charset is refused, not transcoded: an inline job stores the bytes it was sent); counted before they are
// parsed; a leading byte-order mark dropped; and every value checked for what the database cannot store or a
// validator cannot walk (text-limits.ts).
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError } from '../core/api-error.ts';
import { unacceptableValue } from './text-limits.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The body's bytes as received, without a byte-order mark (kept only where the bytes are stored). */
    rawBody?: Buffer;
  }
}

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** The encodings a body may be sent in (decoded before anything else; the limits count decoded bytes). */
export const contentEncodings = ['identity', 'gzip', 'deflate', 'br'];

/** A Content-Encoding outside `contentEncodings`, or several stacked: 415. */
export function acceptedEncoding(req: Request): ApiError | undefined {
  const encoding = req.get('content-encoding')?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || contentEncodings.includes(encoding)) return undefined;
  return new ApiError(
    'unsupported_media_type',
    `A body may be sent with Content-Encoding ${contentEncodings.join(', ')}, not "${encoding}".`,
  );
}

function encodingAndCharset(req: Request, _res: Response, next: NextFunction): void {
  const refused = acceptedEncoding(req);
  if (refused) return next(refused);
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && req.is('application/json')) {
    return next(new ApiError('unsupported_media_type', `JSON bodies must be UTF-8, not "${charset}".`));
  }
  next();
}

/** Refuses a body with a value text-limits.ts does not accept (after the rate limits, so such requests count). */
export function storableValues(req: Request, _res: Response, next: NextFunction): void {
  // An empty JSON body leaves no body at all, which a route must not meet (it was a 500 on POST /problem).
  if (req.body === undefined && req.is('application/json'))
    return next(
      new ApiError('invalid_request', 'The request needs a JSON body.', {
        errors: [{ pointer: '/', detail: 'is required' }],
      }),
    );
  const found = req.body !== undefined && typeof req.body === 'object' ? unacceptableValue(req.body) : undefined;
  if (found)
    return next(new ApiError('invalid_request', 'The request does not match the API contract.', { errors: [found] }));
  next();
}

/** The JSON body of an operation, smaller than `limitBytes`; `keepRaw` keeps its bytes as `req.rawBody`. */
export function jsonBody(limitBytes: number, keepRaw = false): RequestHandler[] {
  const verify = (req: Request, _res: Response, buf: Buffer) =>
    void (req.rawBody = buf.subarray(0, 3).equals(bom) ? buf.subarray(3) : buf);
  return [
    encodingAndCharset,
    express.json({ limit: limitBytes - 1, type: 'application/json', ...(keepRaw ? { verify } : {}) }),
  ];
}
