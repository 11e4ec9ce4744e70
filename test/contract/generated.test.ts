// Drift check: the committed types and HTML reference are exactly what openapi.yaml produces now.
import { describe, expect, it } from 'vitest';
import { staleFiles } from '../../scripts/generated.ts';

describe('generated files', () => {
  it('the TypeScript types are current with openapi.yaml (else run npm run generate)', async () => {
    expect(await staleFiles(['types'])).toEqual([]);
  });

  it('docs/index.html is current with openapi.yaml (else run npm run generate)', async () => {
    expect(await staleFiles(['docs'])).toEqual([]);
  });
});
