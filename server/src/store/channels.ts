// Every notification channel the processes of one database announce on, in one place: two features that shared a
// name would hear each other's announcements (token revocations and users' job events both used jes_user, and every
// job's status event made every process forget every user's token version).

/**
 * Work may be waiting: the workers of every process look for it. Payload: a job's id (its executions were queued),
 * `validate:<id>` (a data file awaits validation: validations.ts) or '' (executions freed).
 */
export const workChannel = 'jes_work';
/** A job changed or was deleted: caches drop it, long polls re-read it. Payload: the job's id. */
export const jobChannel = 'jes_job';
/** A job's event log grew: its streams read it. Payload: the job's id. */
export const eventChannel = 'jes_event';
/** A user's job status events grew: their GET /events streams read them. Payload: the owner's name. */
export const userChannel = 'jes_user';
/** A message was added: the webhook senders of every process wake up. Payload: none. */
export const webhookChannel = 'jes_webhook';
/** Users' tokens were revoked: every process forgets the token versions it remembers. Payload: a name, or '' for several. */
export const revocationChannel = 'jes_revocation';
