// Drift check: the committed types, HTML reference (with its request samples), changelog and guide pages are exactly
// what openapi.yaml, contract/releases/ and docs/*.md produce now, and the copied launchers are scripts/launch.js.
import { describe, expect, it } from 'vitest';
import { staleFiles } from '../../scripts/generated.ts';

describe('generated files', () => {
  it('the TypeScript types are current with openapi.yaml (else run npm run generate)', async () => {
    expect(await staleFiles(['types'])).toEqual([]);
  });

  it('docs/changelog.md is current with contract/releases/ and openapi.yaml (else run npm run generate)', async () => {
    expect(await staleFiles(['changelog'])).toEqual([]);
  });

  it('docs/index.html and docs/guides/*.html are current with openapi.yaml and docs/*.md (else run npm run generate)', async () => {
    expect(await staleFiles(['docs'])).toEqual([]);
  });

  it("each package's bin/launch.js is scripts/launch.js (else run npm run generate)", async () => {
    expect(await staleFiles(['bins'])).toEqual([]);
  });
});
