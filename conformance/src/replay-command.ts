// `jes-conformance replay <file.har>`: the requests of a recorded run (--har) sent again to a deployment, a line per
// difference from what was recorded, and the markdown and JUnit reports when asked. Exit codes: 0 no difference, 1
// some, 2 usage or a deployment that could not be reached.
import { writeFileSync } from 'node:fs';
import { access, type ReplayCommandOptions, type SourceOf } from './command-options.ts';
import { splitUser } from './environment.ts';
import type { RecordedHar } from './har/har.ts';
import { readHar, replayHar, type ReplayReport } from './har/replay.ts';
import { waitLine } from './report/console.ts';
import { differenceLine, replayClosing, replayHeading, replayJunit, replayMarkdown } from './report/replay.ts';

/** `jes-conformance replay <file.har>`: the recorded requests sent again, a line per difference; resolves to the exit code. */
export async function replayCommand(
  file: string,
  o: ReplayCommandOptions,
  sourceOf: SourceOf,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let har: RecordedHar;
  let given: ReturnType<typeof access>;
  const second = o.secondUser ? splitUser(o.secondUser) : undefined;
  try {
    given = access(o, sourceOf);
    if (o.secondUser && !second) throw new Error('--second-user takes name:password');
    if (!/^https?:\/\/[^/]/i.test(o.baseUrl))
      throw new Error(`--base-url takes an http:// or https:// URL; got "${o.baseUrl}"`);
    har = readHar(file);
  } catch (error) {
    err(`error: ${(error as Error).message}`);
    return 2;
  }
  out(replayHeading(file, har.log._jes, har.log.entries.length, o.baseUrl));
  let report: ReplayReport;
  try {
    report = await replayHar({
      baseUrl: o.baseUrl,
      har,
      ...given,
      // An empty variable counts as unset.
      ...(o.username ? { username: o.username } : {}),
      ...(o.password ? { password: o.password } : {}),
      ...(second ? { username2: second.username, password2: second.password } : {}),
      ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
      ...(o.contract ? { contractPath: o.contract } : {}),
      onDifference: (difference) => out(differenceLine(difference)),
      onWait: (wait) => err(waitLine(wait)),
    });
  } catch (error) {
    err(`error: ${(error as Error).message}`);
    return 2;
  }
  out(replayClosing(report));
  if (o.report) writeFileSync(o.report, replayMarkdown(file, report));
  if (o.junit) writeFileSync(o.junit, replayJunit(file, report));
  if (report.unreachable) {
    err(`jes-conformance replay: ${report.unreachable}`);
    return 2;
  }
  return report.differences.length ? 1 : 0;
}
