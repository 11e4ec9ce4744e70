// The ids a replay has to translate: a job id or data file identifier the recorded run got back (in a body, a
// Location, an envelope's key) stands, in every later request, for the one the new deployment gave for the same
// request; an event id a stream sent then stands, in a later Last-Event-ID or last_event_id, for the id of the same
// event now. Ids are recognised by the contract's own patterns (JobId, DataFileIdentifier).
import type { Contract } from '../contract/contract.ts';

/** The recorded answer's body and the new one's, each with its Location, for one request. */
export interface Answers {
  then: { json: unknown; location?: string };
  now: { json: unknown; location?: string };
}

const lastSegment = (location: string | undefined) => location?.split('?')[0]!.split('/').filter(Boolean).at(-1);

/** The single key of an envelope (`{"job": {"<id>": …}}`), else undefined. */
function onlyKey(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 ? keys[0] : undefined;
}

/** The (then, now) pairs of ids two answers to the same request hold in the same places. */
function pairs({ then, now }: Answers): [string, string][] {
  const t = then.json as Record<string, unknown> | undefined;
  const n = now.json as Record<string, unknown> | undefined;
  const found: [unknown, unknown][] = [
    [t?.job, n?.job],
    [t?.data_file_identifier, n?.data_file_identifier],
    [onlyKey(t?.job), onlyKey(n?.job)],
    [onlyKey(t?.data_file), onlyKey(n?.data_file)],
    [lastSegment(then.location), lastSegment(now.location)],
  ];
  return found.filter((p): p is [string, string] => typeof p[0] === 'string' && typeof p[1] === 'string');
}

/** An event's signature: what it says and about which job (its id as the map gives it now), for pairing. */
export interface EventSignature {
  id: string | undefined;
  event: string;
  data: unknown;
}

export class IdMap {
  /** Recorded id → the id the new deployment gave for it. */
  readonly ids = new Map<string, string>();
  /** Recorded event id → the id of the same event now. */
  readonly events = new Map<string, string>();
  private readonly reverse = new Map<string, string>();
  private readonly learnedAt = new Map<string, number>();
  private readonly pattern: RegExp;

  constructor(contract: Contract) {
    const patterns = ['JobId', 'DataFileIdentifier'].map((name) =>
      String(contract.doc.components?.schemas?.[name]?.pattern ?? '').replace(/^\^|\$$/g, ''),
    );
    this.pattern = new RegExp(`(?<![A-Za-z0-9])(?:${patterns.filter(Boolean).join('|')})(?![A-Za-z0-9])`, 'g');
  }

  /** Whether a key or value has the shape of an id (a key of a map by job id or data file identifier). */
  isId(text: string): boolean {
    this.pattern.lastIndex = 0;
    const match = this.pattern.exec(text);
    return match?.index === 0 && match[0].length === text.length;
  }

  /** The text with every recorded id that has a counterpart replaced by it. */
  apply(text: string): string {
    return text.replace(this.pattern, (id) => this.ids.get(id) ?? id);
  }

  /** The text with every new id that stands for a recorded one replaced by it (for messages about a new answer). */
  back(text: string): string {
    return text.replace(this.pattern, (id) => this.reverse.get(id) ?? id);
  }

  /** The recorded id a new one stands for (the map read backwards), or the id itself. */
  recorded(id: string): string {
    return this.reverse.get(id) ?? id;
  }

  /**
   * Learns the ids of entry `index`'s answers. Returns what contradicts an earlier entry: the run got the same id
   * back twice (an Idempotency-Key repeated), the new deployment two different ones.
   */
  learn(index: number, answers: Answers): string[] {
    const contradictions: string[] = [];
    for (const [then, now] of pairs(answers)) {
      const known = this.ids.get(then);
      if (known === undefined) {
        this.ids.set(then, now);
        if (!this.reverse.has(now)) this.reverse.set(now, then);
        this.learnedAt.set(then, index);
      } else if (known !== now)
        contradictions.push(
          `${then} was the answer of entry #${this.learnedAt.get(then)} too, then; now this answer names ${now}, that one ${known}`,
        );
    }
    return contradictions;
  }

  /** Pairs the events of a stream as recorded and as read now, by what they say (event, job, status). */
  learnEvents(then: EventSignature[], now: EventSignature[]): void {
    const signature = (e: EventSignature, map: (id: string) => string) => {
      const data = (e.data ?? {}) as { job_id?: unknown; status?: unknown; solver?: unknown };
      const job = typeof data.job_id === 'string' ? map(data.job_id) : '';
      return `${e.event}|${job}|${String(data.status ?? '')}|${String(data.solver ?? '')}`;
    };
    const unused = now.filter((e) => e.id !== undefined);
    for (const e of then) {
      if (e.id === undefined || this.events.has(e.id)) continue;
      const wanted = signature(e, (id) => this.ids.get(id) ?? id);
      const found = unused.findIndex((n) => signature(n, (id) => id) === wanted);
      if (found >= 0) this.events.set(e.id, unused.splice(found, 1)[0]!.id!);
    }
  }
}
