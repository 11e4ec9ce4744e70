// Reading a /metrics answer in Prometheus' text format: each sample line by its name and labels, as written
// (`jes_jobs{status="FINISHED"}`), with its value. Enough for the tests, which compare samples before and after.

export interface Scrape {
  status: number;
  contentType: string | null;
  text: string;
  samples: Map<string, number>;
}

export function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

export async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, samples: samples(text) };
}

/** A sample's value; 0 when the series does not exist (yet). `labels` in the order the metric declares them. */
export function sample(samples: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  const list = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return samples.get(list.length ? `${name}{${list.join(',')}}` : name) ?? 0;
}
