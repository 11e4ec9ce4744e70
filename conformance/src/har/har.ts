// The HAR 1.2 a run is recorded as (--har; http://www.softwareishard.com/blog/har-12-spec/), with the custom fields
// (`_` and a name, as the specification allows) that a replay needs: which check sent each request, the operation,
// whose token it carried, how the answer broke the contract then, and the run's seed, profile and contract.
import type { Entry, Log, PostData } from 'har-format';
import type { StreamEnd } from '../event-stream.ts';
import type { Profile } from '../types.ts';

/** The run a HAR records: enough to say what it was and to replay it (`log._jes`). */
export interface RecordedRun {
  /** The deployment the run was sent to. */
  baseUrl: string;
  /** The run's id, in the names, files and Idempotency-Keys it made (a replay sends its own in their place). */
  runId: string;
  profile: Profile;
  seed: number;
  runs: number;
  /** The checks the run was limited to (`--only`), when it was. */
  only?: string[];
  /** `info.version` of the contract the run held the deployment to, and what the deployment reported. */
  contract: string;
  deployment: { contractVersion?: string; version?: string };
  /** The usernames the run logged in as (no secret: each login body holds its username as sent); none for a token. */
  users: { user?: string; user2?: string };
  /** Set when the deployment stopped answering: the run, and so the recording, ended there. */
  unreachable?: string;
}

/** A request's body: `_encoding: 'base64'` when it is bytes (HAR 1.2 gives a request body no encoding of its own). */
export type RecordedPostData = PostData & { _encoding?: 'base64' };

/** One exchange of the run. Secrets in it are redacted (`[redacted:…]`, see redact.ts). */
export interface RecordedEntry extends Entry {
  request: Entry['request'] & { postData?: RecordedPostData };
  /** The check that sent it. */
  _check: string;
  /** The operation it reaches by the contract (none for a path or method the contract lacks). */
  _operationId?: string;
  /** Whose token its Authorization carried, when it was a user's. */
  _user?: 'user' | 'user2';
  /** How the answer broke the contract (content type, headers, body schema), as the run's contract judged it before redaction. */
  _violations?: string[];
  /** Why no answer came (`response.status` is then 0). */
  _error?: string;
  /** How reading an event stream ended: it closed, the check had read enough, or its time ran out. */
  _stream?: StreamEnd;
  /** A 429 the suite waited out and sent again (the next entry): a replay leaves it out. */
  _retried?: true;
}

export interface RecordedHar {
  log: Log & { entries: RecordedEntry[]; _jes: RecordedRun };
}
