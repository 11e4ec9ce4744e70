// Security headers on every answer, by helmet: no page of ours framed by another site (clickjacking: X-Frame-Options
// and frame-ancestors), no answer sniffed into another type (nosniff), no address sent on in Referer. Each surface has
// its Content-Security-Policy. The dashboard (/app) may connect to its own origin and the services the operator lists
// (JES_DASHBOARD_ORIGINS) only, so a token or a password cannot be sent anywhere else, even by a script that got in.
// The reference and guides (/docs) keep the policy of their own meta tag (scripts/generated.ts, scripts/guides.ts):
// the header adds only frame-ancestors, which a meta tag cannot carry, so the two never disagree. The API's answers
// are data, never a document: they may load nothing.
import type { RequestHandler } from 'express';
import helmet, { contentSecurityPolicy } from 'helmet';

type Directives = Record<string, string[] | typeof contentSecurityPolicy.dangerouslyDisableDefaultSrc>;

const noFraming = { frameAncestors: ["'none'"] };

function withPolicy(directives: Directives): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { ...directives, ...noFraming } },
    xFrameOptions: { action: 'deny' },
    // The server speaks plain HTTP behind a TLS terminator, which owns HSTS: helmet's default (a year, every
    // subdomain) would bind the operator's whole domain from here.
    strictTransportSecurity: false,
  });
}

export function securityHeaders(dashboardOrigins: readonly string[]): RequestHandler {
  const dashboard = withPolicy({
    defaultSrc: ["'self'"],
    connectSrc: ["'self'", ...dashboardOrigins],
    // Images and styles as the page's own meta policy had them: data: and blob: images, styles set inline (uPlot's).
    imgSrc: ["'self'", 'data:', 'blob:'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    // The log-in form is sent by script, never submitted: no injected form may post a password anywhere.
    formAction: ["'none'"],
  });
  const docs = withPolicy({ defaultSrc: contentSecurityPolicy.dangerouslyDisableDefaultSrc });
  const api = withPolicy({ defaultSrc: ["'none'"] });
  return function securityHeaders(req, res, next) {
    const surface = /^\/(app|docs)(\/|$)/.exec(req.path)?.[1];
    (surface === 'app' ? dashboard : surface === 'docs' ? docs : api)(req, res, next);
  };
}
