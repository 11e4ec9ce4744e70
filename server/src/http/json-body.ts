// JSON request bodies: UTF-8 only (another charset is refused, not transcoded: an inline job stores the bytes
// it was sent), counted before they are parsed, a leading byte-order mark dropped, and every value checked
// for what the database cannot store or a validator cannot walk (text-limits.ts).
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpProblem } from './problems.ts';
import { unacceptableValue } from './text-limits.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The body's bytes as received, without a byte-order mark (kept only where the bytes are stored). */
    rawBody?: Buffer;
  }
}

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

function utf8Only(req: Request, _res: Response, next: NextFunction): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && req.is('application/json')) {
    return next(new HttpProblem('unsupported_media_type', `JSON bodies must be UTF-8, not "${charset}".`));
  }
  next();
}

/** Refuses a body with a value text-limits.ts does not accept (after the rate limits, so such requests count). */
export function storableValues(req: Request, _res: Response, next: NextFunction): void {
  const found = req.body !== undefined && typeof req.body === 'object' ? unacceptableValue(req.body) : undefined;
  if (found) return next(new HttpProblem('invalid_request', 'The request does not match the API contract.', { errors: [found] }));
  next();
}

/** The JSON body of an operation, smaller than `limitBytes`; `keepRaw` keeps its bytes as `req.rawBody`. */
export function jsonBody(limitBytes: number, keepRaw = false): RequestHandler[] {
  const verify = (req: Request, _res: Response, buf: Buffer) => void (req.rawBody = buf.subarray(0, 3).equals(bom) ? buf.subarray(3) : buf);
  return [utf8Only, express.json({ limit: limitBytes - 1, type: 'application/json', ...(keepRaw ? { verify } : {}) })];
}
