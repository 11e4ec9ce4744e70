// Outside the contract: the generated API reference and the guides (docs/index.html, docs/guides/<name>.html), and
// the dashboard (docs/app/: /app/ answers its page, /app/app-<hash>.js and .css its script and style sheet).
// GET /docs redirects to /docs/, so the reference's relative links (guides/…) resolve as they do when the file is
// opened from disk; /docs/ and /docs/index.html answer the reference, /docs/guides/<name>.html (or without .html) a
// guide. Each page is compressed once, on its first request, and kept in memory with brotli and gzip (the
// reference is 2.6 MB, about 0.6 MB compressed); the answer follows Accept-Encoding, with Vary and an ETag per
// encoding. Any other path under /docs goes on to the routing of the contract (404 not_found).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';

interface Encoded {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** A digest of the page, the ETag's stem. */
  tag: string;
}

/** Brotli's quality 9: 2.6 MB in about 0.2 s, against 4 s for quality 11 at a 10% smaller size. */
async function encode(file: string): Promise<Encoded> {
  const identity = await readFile(file);
  const brotli = { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length };
  const [br, gzipped] = await Promise.all([
    promisify(brotliCompress)(identity, { params: brotli }),
    promisify(gzip)(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gzipped, tag: createHash('sha256').update(identity).digest('base64url').slice(0, 22) };
}

const codings = ['br', 'gzip', 'identity'] as const;
type Coding = (typeof codings)[number];

/**
 * The coding to answer with (RFC 9110 §12.5.3): the highest q-value the client gives among ours, brotli first on
 * a tie (browsers list gzip first but accept both, and brotli is smaller). Without Accept-Encoding, identity.
 * Express's req.acceptsEncodings breaks ties by the client's order, hence this.
 */
export function chooseCoding(header: string | undefined): Coding {
  if (header === undefined) return 'identity';
  const given = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (name && Number.isFinite(value)) given.set(name, value);
  }
  const quality = (coding: Coding) => given.get(coding) ?? given.get('*') ?? (coding === 'identity' ? 1 : 0);
  // A stable sort: on a tie our order stands. When nothing is acceptable, identity all the same (not a 406).
  return codings.filter((c) => quality(c) > 0).sort((a, b) => quality(b) - quality(a))[0] ?? 'identity';
}

export function docsRoutes(docsDir: string): RequestHandler {
  const pages = new Map<string, Promise<Encoded>>();
  const encoded = (file: string) => {
    let page = pages.get(file);
    if (!page) {
      page = encode(file);
      // A failed read is not kept: the next request tries again.
      page.catch(() => pages.delete(file));
      pages.set(file, page);
    }
    return page;
  };
  let guides: Promise<Set<string>> | undefined;
  const guideNames = () =>
    (guides ??= readdir(join(docsDir, 'guides')).then(
      (files) => new Set(files.filter((f) => f.endsWith('.html')).map((f) => f.slice(0, -'.html'.length))),
      () => new Set<string>(),
    ));

  let app: Promise<Set<string>> | undefined;
  const appFiles = () =>
    (app ??= readdir(join(docsDir, 'app')).then(
      (files) => new Set(files),
      () => new Set<string>(),
    ));

  const send = async (file: string, req: Request, res: Response, type = 'html', cache = 'no-cache') => {
    const page = await encoded(file);
    const encoding = chooseCoding(req.get('accept-encoding'));
    res.vary('Accept-Encoding');
    res.type(type);
    res.set('Cache-Control', cache);
    res.set('ETag', `"${page.tag}-${encoding}"`);
    if (encoding !== 'identity') res.set('Content-Encoding', encoding);
    // res.send answers 304 to a matching If-None-Match, and leaves the body out for HEAD.
    res.send(page[encoding]);
  };

  const pagesRouter = Router({ strict: true, caseSensitive: true })
    .get('/docs', function redirectToDocs(req: Request, res: Response) {
      const query = req.originalUrl.indexOf('?');
      res.redirect(301, `/docs/${query < 0 ? '' : req.originalUrl.slice(query)}`);
    })
    .get(['/docs/', '/docs/index.html'], function getReference(req: Request, res: Response) {
      return send(join(docsDir, 'index.html'), req, res);
    })
    .get('/docs/guides/:page', async function getGuide(req: Request, res: Response, next: NextFunction) {
      const name = /^([a-z0-9-]+)(?:\.html)?$/.exec(req.params.page as string)?.[1];
      if (name === undefined || !(await guideNames()).has(name)) return next();
      return send(join(docsDir, 'guides', `${name}.html`), req, res);
    })
    .get('/app', function redirectToApp(req: Request, res: Response) {
      const query = req.originalUrl.indexOf('?');
      res.redirect(301, `/app/${query < 0 ? '' : req.originalUrl.slice(query)}`);
    })
    .get(['/app/', '/app/index.html'], function getDashboard(req: Request, res: Response) {
      return send(join(docsDir, 'app', 'index.html'), req, res);
    })
    // The dashboard's script and style sheet are named by their content's hash: cached for good.
    .get('/app/:file', async function getDashboardFile(req: Request, res: Response, next: NextFunction) {
      const [, name, ext] = /^(app-[A-Z0-9]+)\.(js|css)$/.exec(req.params.file as string) ?? [];
      if (name === undefined || !(await appFiles()).has(req.params.file as string)) return next();
      return send(join(docsDir, 'app', `${name}.${ext}`), req, res, ext!, 'public, max-age=31536000, immutable');
    });
  // Only reads of /docs… reach the pages, and the router is not run for any other GET. Any other method goes on to
  // the contract's routing (404 not_found, as for /openapi.yaml), rather than to the router's own answer to OPTIONS
  // (a 200 listing GET, HEAD).
  return (req: Request, res: Response, next: NextFunction) =>
    (req.method === 'GET' || req.method === 'HEAD') && (req.path.startsWith('/docs') || req.path.startsWith('/app'))
      ? pagesRouter(req, res, next)
      : next();
}
