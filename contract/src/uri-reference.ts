// A problem's `instance` is a URI reference (openapi.yaml: Problem.instance, format uri-reference), and the path a
// request names need not be one: the server and the sandbox both answer with the path made into one.

const notInPath = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;
const utf8 = new TextEncoder();

/** A request path as a URI reference (RFC 3986): a stray '%' and what a path cannot hold (`|`, `[`, é) percent-encoded. */
export const uriReference = (path: string): string =>
  path.replace(notInPath, (c) =>
    [...utf8.encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
