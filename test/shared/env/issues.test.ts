// formatIssues names the offending colour value itself, read from the raw arguments (also through
// JSON-string arguments), and gives a top-level field's union hint; both survived the mutation
// sample before these tests (docs/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { formatIssues } from '../../../src/shared/env/issues';
import { TOOL_SCHEMAS } from '../../../src/shared/kinds/splatbench/tools';

const reasons = (args: unknown): string => {
  const r = TOOL_SCHEMAS.add_gaussians.safeParse(args);
  if (r.success) throw new Error('expected the arguments to be refused');
  return formatIssues(r.error.issues, args);
};

describe('colour reasons', () => {
  it('quote the bad colour of the numbered item', () => {
    expect(reasons({ gaussians: [{ pos: [0, 0, 0], color: [1, 0, 0] }, { pos: [0, 0, 0], color: [1, 0] }] })).toBe(
      "#1: unknown color [1,0] (use '#rrggbb' or [r,g,b])",
    );
    expect(reasons({ gaussians: [{ pos: [0, 0, 0], color: { r: 1 } }] })).toBe(`#0: unknown color {"r":1} (use '#rrggbb' or [r,g,b])`);
  });

  it('say that a JSON string was sent where an array goes (it is refused, not read)', () => {
    expect(reasons({ gaussians: '[{"pos": [0, 0, 0], "color": [1, "x", 0]}]' })).toBe('gaussians: expected array, received a JSON string: send the array itself, not a string holding it');
  });
});

describe('union hints', () => {
  it('name the top-level field even when the issue is at one of its items', () => {
    const args = { views: [true] };
    const r = TOOL_SCHEMAS.render_views.safeParse(args);
    expect(r.success).toBe(false);
    if (!r.success) expect(formatIssues(r.error.issues, args)).toBe('views[0]: views must be indices (0 = V0) or names ("V0")');
  });
});
