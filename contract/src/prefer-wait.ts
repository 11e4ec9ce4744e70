// `Prefer: wait=N` on GET /job/{job_id} (RFC 7240; the contract's long poll), as the server and the sandbox read it.

/** The longest wait honoured, in seconds. */
export const maxPreferredWait = 60;

/** N of `Prefer: wait=N`, at most maxPreferredWait; undefined without it. */
export function preferredWait(prefer: string | undefined): number | undefined {
  const match = /(?:^|[,;\s])wait\s*=\s*(\d+)/i.exec(prefer ?? '');
  return match ? Math.min(maxPreferredWait, Number(match[1])) : undefined;
}
