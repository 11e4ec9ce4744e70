// Instants as the contract writes them, on any date: `MM/DD/YYYY, HH:MM:SS` in UTC beside RFC 3339, for fixed
// instants around a day's, a month's and a year's end and a leap day, and for a job run now, whatever now is (the
// clock set runs this file again a year ahead and across a New Year's Eve: test/clock/set.ts).
import { describe, expect, it } from 'vitest';
import { documentedTimestamp, rfc3339 } from '@jes/contract';
import { formatTimestamp, sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

describe('documentedTimestamp', () => {
  it.each([
    ['2026-12-31T23:59:59.999Z', '12/31/2026, 23:59:59'],
    ['2027-01-01T00:00:00.000Z', '01/01/2027, 00:00:00'],
    ['2028-02-29T12:05:09.500Z', '02/29/2028, 12:05:09'],
    ['2026-03-01T00:00:00.001Z', '03/01/2026, 00:00:00'],
    ['1999-12-31T23:59:59.000Z', '12/31/1999, 23:59:59'],
  ])('writes %s as %s, in UTC whatever the time zone', (iso, documented) => {
    expect(documentedTimestamp(new Date(iso))).toBe(documented);
    expect(rfc3339(new Date(iso))).toBe(iso);
  });

  it('writes no instant as "" and null', () => {
    expect([documentedTimestamp(null), rfc3339(null)]).toEqual(['', null]);
  });
});

describe('a job run now', () => {
  const jes = sharedServer();

  it('gives each documented timestamp as its RFC 3339 twin, and ends no earlier than it started', async () => {
    const id = await jes.alice.start(sixNodes, '?solver=exact&solver=local-search&time_limit_seconds=0.2');
    const job = await jes.alice.waitFor(id);
    expect(job.status, JSON.stringify(job.executions)).toBe('FINISHED');
    expect([job.started_at, job.end_at]).toEqual([
      formatTimestamp(job.timestamps.submitted),
      formatTimestamp(job.timestamps.ended),
    ]);
    expect(Date.parse(job.timestamps.ended)).toBeGreaterThanOrEqual(Date.parse(job.timestamps.submitted));
    for (const execution of Object.values<any>(job.executions)) {
      expect([execution.started_at, execution.end_at]).toEqual([
        formatTimestamp(execution.timestamps.running),
        formatTimestamp(execution.timestamps.ended),
      ]);
      const ran = Date.parse(execution.timestamps.ended) - Date.parse(execution.timestamps.running);
      expect(execution.duration_seconds).toBe(ran / 1000);
    }
  });
});
