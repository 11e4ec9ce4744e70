// An upload's progress on a terminal (stderr): one line rewritten in place with the bytes sent of the total,
// the percentage and the rate, ended by a line break. Nothing at all when the stream is not a terminal.
import type { UploadOptions } from '../index.ts';

type OnProgress = NonNullable<UploadOptions['onProgress']>;

/** A byte count for reading: `900 B`, `12.4 KiB`, `20.0 MiB` (the units of the service's limits). */
export function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 ** 2) return `${(count / 1024).toFixed(1)} KiB`;
  if (count < 1024 ** 3) return `${(count / 1024 ** 2).toFixed(1)} MiB`;
  return `${(count / 1024 ** 3).toFixed(2)} GiB`;
}

export function uploadLine(name: string, sent: number, total: number | undefined, elapsedMs: number): string {
  const percent = total === 0 ? 100 : Math.floor((sent / (total ?? 1)) * 100);
  const amount = total === undefined ? bytes(sent) : `${bytes(sent)} of ${bytes(total)} (${percent}%)`;
  const rate = sent > 0 && elapsedMs > 0 ? `, ${bytes(Math.round((sent / elapsedMs) * 1000))}/s` : '';
  return `Uploading ${name}: ${amount}${rate}`;
}

export interface UploadProgress {
  onProgress: OnProgress;
  done(): void;
}

/** Redraws at most every `everyMs`, and always the last state, so that the line ends at what was sent. */
export function uploadProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  name: string,
  everyMs = 100,
): UploadProgress | undefined {
  if (!stream.isTTY) return undefined;
  const started = Date.now();
  let drawn = -Infinity;
  let last: [number, number | undefined] | undefined;
  const draw = () => {
    if (!last) return;
    stream.write(`\r\x1b[2K${uploadLine(name, last[0], last[1], Date.now() - started)}`);
    drawn = Date.now();
  };
  return {
    onProgress(sent, total) {
      last = [sent, total];
      if (sent === total || Date.now() - drawn >= everyMs) draw();
    },
    done() {
      if (!last) return;
      if (last[0] !== last[1]) draw();
      stream.write('\n');
    },
  };
}
