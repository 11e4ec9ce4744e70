// The live progress of a job being waited for, on stderr: one line rewritten in place on a terminal,
// plain lines (one per change of status or best value) otherwise.
import { bestValue, type Job } from '../index.ts';
import { seconds, text } from './format.ts';
import { wordsFor } from './use-case-words.ts';
import { elapsedSeconds } from './views.ts';

export interface Progress {
  update(job: Job): void;
  done(): void;
}

export function progressLine(job: Job, now = Date.now()): string {
  const best = wordsFor(job.problem_id).best.toLowerCase();
  return `${job.id} ${job.status.padEnd(9)} ${best} ${text(bestValue(job)).padStart(6)}  elapsed ${seconds(elapsedSeconds(job, now))}`;
}

export function progress(stream: NodeJS.WritableStream & { isTTY?: boolean }): Progress {
  if (stream.isTTY) {
    let shown = false;
    return {
      update(job) {
        stream.write(`\r\x1b[2K${progressLine(job)}`);
        shown = true;
      },
      done() {
        if (shown) stream.write('\n');
      },
    };
  }
  let last = '';
  return {
    update(job) {
      const state = `${job.status} ${bestValue(job)}`;
      if (state === last) return;
      last = state;
      stream.write(`${progressLine(job)}\n`);
    },
    done() {},
  };
}
