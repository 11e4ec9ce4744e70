// An upload's progress: bytes sent of the total, as a progress bar (XMLHttpRequest's upload events, xhr-fetch.ts).
import { bytes } from '../format.ts';

export interface Sent {
  sent: number;
  total: number;
}

export function UploadProgress({ progress }: { progress: Sent | undefined }) {
  if (!progress) return null;
  return (
    <label>
      Uploading {bytes(progress.sent)} of {bytes(progress.total)}
      <progress max={progress.total} value={progress.sent} />
    </label>
  );
}
