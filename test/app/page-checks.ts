// What the dashboard test reads of a page as it stands, in the browser: its tables' rows, what is wider than the
// window (a page that scrolls sideways on a phone), axe-core's violations, and which colours a drawing uses (read
// from a screenshot of it, decoded by the browser itself, since a WebGL canvas keeps no pixels to read once shown).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The text of each row of each table (its cells, tab-separated), as the page shows them at one moment. */
export const tablesOf = (page: Page, ...tables: string[]) =>
  page.evaluate(
    (tables) =>
      tables.map((table) =>
        [...document.querySelectorAll(`${table} tbody tr`)].map((row) =>
          [...row.children].map((cell) => cell.textContent?.trim()).join('\t'),
        ),
      ),
    tables,
  );
export const rowsOf = async (page: Page, table: string) => (await tablesOf(page, table))[0]!;

/** A point of the chart's table of values: solver, seconds since the job started, since the solver did, value. */
export type ChartValue = [solver: string, sinceJob: number, sinceSolver: number, value: string];

/**
 * The best value over time as the chart's table of values gives it: each solver's group of rows is led by a row of
 * its name alone, then its points (seconds since the job started, since the solver did, value).
 */
export function chartValues(rows: string[]): ChartValue[] {
  let solver = '';
  return rows.flatMap((row): ChartValue[] => {
    const cells = row.split('\t');
    if (cells.length === 1) {
      solver = cells[0]!;
      return [];
    }
    const [sinceJob, sinceSolver, value] = cells as [string, string, string];
    return [[solver, Number(sinceJob), Number(sinceSolver), value]];
  });
}

/** axe-core on the page as it stands: the serious and critical violations, each with where it is. */
export async function accessibility(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => (await (window as any).axe.run(document)).violations);
  return violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
}

/** The document's sideways overflow and each element wider than the window or sticking out of it, described. */
export function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const whole = document.documentElement.scrollWidth;
    if (whole > width) found.push(`the document is ${whole} px wide`);
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      // Its content counts too (a long word sticks out of its heading), unless the element clips or scrolls it.
      const clips = getComputedStyle(element).overflowX !== 'visible';
      const right = Math.max(box.right, clips ? 0 : box.left + element.scrollWidth);
      if (box.width === 0 || (box.width <= width && box.left >= -1 && right <= width + 1)) continue;
      const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).trim().replace(/\s+/g, '.')}` : ''}`;
      const text = (element.textContent ?? '').trim().slice(0, 40);
      found.push(`${name} "${text}" spans ${Math.round(box.left)} to ${Math.round(right)} px`);
    }
    return found;
  });
}

export interface Colours {
  /** Strongly coloured pixels whose hue is one of the legend's swatches', by the swatch's index. */
  byKey: number[];
  /** Strongly coloured pixels of a hue that no swatch has. */
  other: number;
}

/**
 * The strongly coloured pixels of what `drawing` shows, sorted by the hue of the legend's swatch they are
 * nearest to (within 25°), or `other`. Greys and near-whites are left out; a light tint (saturation 0.2, the cyan
 * the drawing once showed) is not.
 */
export async function colours(page: Page, drawing: Locator, swatches: Locator): Promise<Colours> {
  const shot = (await drawing.screenshot()).toString('base64');
  const keys = await swatches.evaluateAll((all) => all.map((s) => getComputedStyle(s).backgroundColor));
  return page.evaluate(
    async ({ shot, keys }) => {
      const hsv = (r: number, g: number, b: number) => {
        const max = Math.max(r, g, b);
        const span = max - Math.min(r, g, b);
        const hue =
          span === 0 ? 0 : max === r ? ((g - b) / span + 6) % 6 : max === g ? (b - r) / span + 2 : (r - g) / span + 4;
        return { hue: hue * 60, saturation: max === 0 ? 0 : span / max, value: max / 255 };
      };
      const strong = (c: { saturation: number; value: number }) => c.saturation > 0.2 && c.value > 0.25;
      const hues = keys.map((k) => {
        const [r, g, b] = k.match(/\d+/g)!.map(Number) as [number, number, number];
        const c = hsv(r, g, b);
        return strong(c) ? c.hue : undefined;
      });
      const image = new Image();
      image.src = `data:image/png;base64,${shot}`;
      await image.decode();
      const canvas = Object.assign(document.createElement('canvas'), { width: image.width, height: image.height });
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, image.width, image.height).data;
      const byKey = hues.map(() => 0);
      let other = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        const c = hsv(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!);
        if (!strong(c)) continue;
        const key = hues.findIndex(
          (h) => h !== undefined && Math.min(Math.abs(h - c.hue), 360 - Math.abs(h - c.hue)) <= 25,
        );
        if (key < 0) other++;
        else byKey[key]!++;
      }
      return { byKey, other };
    },
    { shot, keys },
  );
}

/**
 * The bands of columns with ink left of a uPlot chart's plot (its y axis: the title, its labels, its ticks), as
 * [from, to] pixels from the left, read from the chart's canvas (a 2D one, which keeps its pixels).
 */
export function yAxisInk(page: Page): Promise<[number, number][]> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('.chart canvas')!;
    const plotLeft = Math.round(document.querySelector<HTMLElement>('.chart .u-over')!.offsetLeft * devicePixelRatio);
    const { data, width } = canvas.getContext('2d')!.getImageData(0, 0, plotLeft, canvas.height);
    const inked = (x: number) => {
      for (let y = 0; y < canvas.height; y++) if (data[(y * width + x) * 4 + 3]! > 64) return true;
      return false;
    };
    const bands: [number, number][] = [];
    for (let x = 0; x < plotLeft; x++)
      if (inked(x)) {
        const last = bands.at(-1);
        if (last && last[1] === x - 1) last[1] = x;
        else bands.push([x, x]);
      }
    return bands;
  });
}
