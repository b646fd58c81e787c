// The one mean (src/shared/analysis/bootstrap.ts mean / meanOrNull) behind the analyses, the
// study summaries and paired tables, the heading summary, the mirror test, the judge agreement and
// the Inspect export: left-to-right sums (so a table's figures do not move), null for no values.
import { describe, expect, it } from 'vitest';
import { mean, meanOrNull } from '../../../src/shared/analysis/bootstrap';
import { headingSummary } from '../../../src/shared/analysis/heading';

describe('meanOrNull', () => {
  it('is the left-to-right mean, or null for no values', () => {
    expect(meanOrNull([])).toBeNull();
    expect(meanOrNull([1, 2, 6])).toBe(3);
    expect(meanOrNull([0.1, 0.2, 0.3])).toBe((0.1 + 0.2 + 0.3) / 3);
    expect(mean([0.1, 0.2, 0.3])).toBe(meanOrNull([0.1, 0.2, 0.3]));
    expect(headingSummary([10, null, 20])).toMatchObject({ parts: 3, within: 1, meanDeg: 15 });
    expect(headingSummary([null]).meanDeg).toBeNull();
  });
});
