// Writes refused while the disk is below its floor of free space (store/disk-space.ts): 507 insufficient_storage,
// with Retry-After, saying how much is free and kept in reserve.
import { ApiError } from '../core/api-error.ts';
import type { DiskSpace } from '../store/disk-space.ts';

const retrySeconds = 60;
const mib = (bytes: number) => Math.floor(bytes / 1024 / 1024);

export function noRoom(space: DiskSpace | undefined): ApiError {
  const why = space
    ? `The service's disk has ${mib(space.free())} MiB free and keeps ${mib(space.floorBytes)} MiB in reserve.`
    : "The service's disk is full.";
  return new ApiError('insufficient_storage', `${why} No new job or upload is stored until space is freed.`, {
    headers: { 'Retry-After': String(retrySeconds) },
  });
}

/** Refuses a write of `bytes` that would take the disk below its floor. */
export function requireRoom(space: DiskSpace | undefined, bytes: number): void {
  if (space && !space.room(bytes)) throw noRoom(space);
}
