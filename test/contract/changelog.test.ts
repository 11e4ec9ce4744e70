// The changelog (scripts/changelog.ts, docs/changelog.md): a section per released version and one for openapi.yaml
// while it is above the newest release, newest first, each with what scripts/contract-diff.ts finds since the
// version before, breaking changes first; on a copy of the contract, a breaking change shows where a client reads it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderChangelog } from '../../scripts/changelog.ts';
import { newer, releasedVersions } from '../../scripts/releases.ts';
import { loadContract } from './openapi-document.ts';

const root = join(import.meta.dirname, '../..');
const headings = (markdown: string) => [...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
/** The lines of a version's section, up to the next version's. */
const sectionOf = (markdown: string, heading: string) =>
  markdown.split(/^## /m).find((s) => s.startsWith(`${heading}\n`))!;

describe('the changelog of the repository', () => {
  const changelog = renderChangelog(root);
  const version = String(loadContract().info.version);
  const released = releasedVersions(root);

  it('has a section per released version, newest first, and one for openapi.yaml above the newest release', () => {
    const unreleased = newer(version, released.at(-1)!) ? [`${version} (unreleased)`] : [];
    expect(headings(changelog)).toEqual([...unreleased, ...[...released].reverse()]);
    expect(sectionOf(changelog, '1.0.0')).toMatch(/The first released version\./);
  });

  it("marks a version's breaking changes and lists them first, by the schema that holds the member", () => {
    const section = sectionOf(changelog, '1.5.0');
    expect(section).toMatch(/^Since 1\.4\.0: \d+ changes, \d+ of them breaking\.$/m);
    expect(section.indexOf('### Breaking')).toBeLessThan(section.indexOf('### Other changes'));
    const breaking = section.slice(section.indexOf('### Breaking'), section.indexOf('### Other changes'));
    expect(breaking).toContain('- `Execution.data`: may now be `QuboOutput`.');
    expect(breaking).toMatch(/Released under a minor version/);
  });

  it('tells a change shared by several operations once, naming them', () => {
    const lines = changelog.split('\n').filter((l) => l.includes('may answer 503 now'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^- `POST \/login`, `GET \/problem`, .*: may answer 503 now\.$/);
  });

  it('is a guide the contract links in its Guides list', () => {
    expect(String(loadContract().info.description)).toMatch(/^- \[Changelog\]\(guides\/changelog\.html\): /m);
  });
});

describe('on a copy whose contract breaks a client', () => {
  const tree = mkdtempSync(join(tmpdir(), 'jes-changelog-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  cpSync(join(root, 'contract/releases'), join(tree, 'contract/releases'), { recursive: true });
  const newest = releasedVersions(root).at(-1)!;
  const major = Number(newest.split('.')[0]);
  const withContract = (version: string) => {
    const contract = readFileSync(join(root, 'openapi.yaml'), 'utf8')
      .replace(/\n {2}\/healthz:\n(?: {4}.*\n)+/, '\n')
      .replace(/^ {2}version: .*$/m, `  version: ${version}`);
    writeFileSync(join(tree, 'openapi.yaml'), contract);
    return renderChangelog(tree);
  };

  it('lists the removed path first, under a new major version, as unreleased', () => {
    const changelog = withContract(`${major + 1}.0.0`);
    expect(headings(changelog)[0]).toBe(`${major + 1}.0.0 (unreleased)`);
    const section = sectionOf(changelog, `${major + 1}.0.0 (unreleased)`);
    expect(section).toMatch(
      new RegExp(`^Since ${newest.replaceAll('.', '\\.')}: \\d+ changes, \\d+ of them breaking\\.$`, 'm'),
    );
    expect(section.split('\n').filter((l) => l.startsWith('- '))[0]).toBe('- `/healthz`: no longer served.');
    expect(section).not.toMatch(/Released under a minor version/);
  });

  it('has no unreleased section once openapi.yaml is at the newest release', () => {
    expect(headings(withContract(newest))[0]).toBe(newest);
  });
});
