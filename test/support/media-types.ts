// Bodies of a media type the operation does not take, and the 415 detail a user must see for each: what the
// operation accepts and what to send (issue 13: curl -d, which sends application/x-www-form-urlencoded, got
// "This operation does not accept application/x-www-form-urlencoded"). Run against the reference server
// (server/test/media-types.test.ts) and the sandbox (sandbox/test/media-types.test.ts) alike.

export interface RefusedMediaType {
  what: string;
  path: string;
  /** The Content-Type sent; none at all when undefined. */
  contentType?: string;
  body: string;
  detail: string;
}

const json = "Send Content-Type: application/json (with curl: -H 'Content-Type: application/json').";
const form = 'Send the body as multipart/form-data (with curl: -F name=value, not -d).';

export const refusedMediaTypes: RefusedMediaType[] = [
  {
    what: 'a job as curl -d sends it',
    path: '/problem/maxcut',
    contentType: 'application/x-www-form-urlencoded',
    body: '{"num_nodes": 1, "adj_matrix": [[0]]}',
    detail: `This operation accepts application/json; the request was sent as application/x-www-form-urlencoded. ${json}`,
  },
  {
    what: 'a job without Content-Type',
    path: '/problem/maxcut',
    body: '{"num_nodes": 1, "adj_matrix": [[0]]}',
    detail: `This operation accepts application/json; the request has no Content-Type. ${json}`,
  },
  {
    what: 'a job as text/plain with a charset',
    path: '/problem/maxcut',
    contentType: 'text/plain; charset=utf-8',
    body: '{"num_nodes": 1, "adj_matrix": [[0]]}',
    detail: `This operation accepts application/json; the request was sent as text/plain. ${json}`,
  },
  {
    what: 'a login as curl -d sends it',
    path: '/login',
    contentType: 'application/x-www-form-urlencoded',
    body: 'username=alice&password=secret',
    detail: `This operation accepts application/json; the request was sent as application/x-www-form-urlencoded. ${json}`,
  },
  {
    what: 'an upload as JSON',
    path: '/data_file',
    contentType: 'application/json',
    body: '{"problem_id": "maxcut", "name": "g.txt", "file": "2 1\\n1 2 3\\n"}',
    detail: `This operation accepts multipart/form-data; the request was sent as application/json. ${form}`,
  },
];
