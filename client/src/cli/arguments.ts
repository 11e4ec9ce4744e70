// Parsers for option values: a bad value is a usage error (exit code 2) with commander's message.
import { InvalidArgumentError } from 'commander';

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('expected a number of seconds above 0');
  return n;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** An Idempotency-Key as the contract allows it: 1 to 255 printable ASCII characters, no space at either end. */
export function idempotencyKey(value: string): string {
  if (!/^[!-~]([ -~]*[!-~])?$/.test(value) || value.length > 255)
    throw new InvalidArgumentError('expected 1 to 255 printable ASCII characters, no space at either end');
  return value;
}

export const jobStatuses = ['PENDING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED'] as const;
export const dataFileStatuses = ['PROCESSING', 'READY', 'INVALID'] as const;

/** One of `statuses`, written in any case (`cancelled` is CANCELLED). */
export function statusOf<S extends string>(statuses: readonly S[]): (value: string) => S {
  return (value) => {
    const status = statuses.find((s) => s === value.trim().toUpperCase());
    if (!status) throw new InvalidArgumentError(`expected one of ${statuses.join(', ')} (in any case)`);
    return status;
  };
}
