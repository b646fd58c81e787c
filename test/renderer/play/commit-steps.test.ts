// The per-commit score curve's data (issue 42, item 7): a commit of 3 calls starting at call 4
// hides calls 4 and 5 (its last, 6, shows the state the person saw); 1-call commits hide nothing.
import { describe, expect, it } from 'vitest';
import { insideCommits } from '../../../src/renderer/components/results/commit-steps';

describe('insideCommits', () => {
  it('names the calls inside each commit but its last', () => {
    const s = insideCommits([
      { t: 1, e: 'commit', d: { first: 1, calls: 1 } },
      { t: 2, e: 'select', d: { n: 3 } },
      { t: 3, e: 'commit', d: { first: 4, calls: 3 } },
    ]);
    expect([...s].sort()).toEqual([4, 5]);
    expect(insideCommits(undefined).size).toBe(0);
  });
});
