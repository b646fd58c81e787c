// Exact texts of the env's refusals and summaries: the "(and N more)" tail of argument issues, the
// JSON-string hint (only for strings that start like JSON), unknown-id lists (plural, capped at 20),
// delete counts, group summaries, cap texts and how an end reason ends the episode. Each case was
// a surviving mutant of `npm run mutation -- --folder env` (docs/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { formatIssues } from '../../../src/shared/env/issues';
import { TOOL_SCHEMAS } from '../../../src/shared/kinds/splatbench/tools';
import { deleteGaussians, selectIds } from '../../../src/shared/kinds/splatbench/ops-edit';
import { describeGroups } from '../../../src/shared/kinds/splatbench/ops-inspect';
import { capText } from '../../../src/shared/env/caps';
import { endingOf } from '../../../src/shared/env/step-info';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const reasons = (args: unknown): string => {
  const r = TOOL_SCHEMAS.add_gaussians.safeParse(args);
  if (r.success) throw new Error('expected the arguments to be refused');
  return formatIssues(r.error.issues, args);
};
const item = (pos: unknown): unknown => ({ pos, color: [1, 0, 0] });
const bad = '#0: pos: expected tuple, received string; #1: pos: expected tuple, received string; #2: pos: expected tuple, received string';

const rec = (id: number, pos: GaussianRecord['pos'], color: GaussianRecord['color'], group?: string): GaussianRecord => ({
  id, pos, scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color, opacity: 1, ...(group === undefined ? {} : { group }),
});
const scene = [rec(0, [1, 2, 3], [1, 0, 0], 'a'), rec(1, [-1, 0, 5], [0, 0, 1], 'a'), rec(2, [0, 0, 0], [0, 1, 0])];

describe('argument issues', () => {
  it('show three issues and count the rest', () => {
    expect(reasons({ gaussians: ['a', 'b', 'c'].map(item) })).toBe(bad);
    expect(reasons({ gaussians: ['a', 'b', 'c', 'd'].map(item) })).toBe(`${bad} (and 1 more)`);
    expect(reasons({ gaussians: ['a', 'b', 'c', 'd', 'e'].map(item) })).toBe(`${bad} (and 2 more)`);
  });

  it('give the JSON-string hint only to strings that start like JSON', () => {
    const hint = 'gaussians: expected array, received a JSON string: send the array itself, not a string holding it';
    expect(reasons({ gaussians: '  {"pos": 1}' })).toBe(hint);
    expect(reasons({ gaussians: 'not json' })).toBe('gaussians: expected array, received string');
    expect(reasons({ gaussians: 'list [1]' })).toBe('gaussians: expected array, received string');
    expect(reasons({ gaussians: 5 })).toBe('gaussians: expected array, received number');
    expect(reasons({ gaussians: { pos: 1 } })).toBe('gaussians: expected array, received object');
  });
});

describe('id selection', () => {
  it('names unknown ids once each, in the plural only for several, at most 20', () => {
    expect(selectIds(scene, [7], undefined)).toEqual({ errors: ['unknown id 7'] });
    expect(selectIds(scene, [7, 8, 7], undefined)).toEqual({ errors: ['unknown ids 7, 8'] });
    const many = Array.from({ length: 21 }, (_, i) => 100 + i);
    expect(selectIds(scene, many, undefined)).toEqual({ errors: [`unknown ids ${many.slice(0, 20).join(', ')}, ...`] });
    const twenty = many.slice(0, 20);
    expect(selectIds(scene, twenty, undefined)).toEqual({ errors: [`unknown ids ${twenty.join(', ')}`] });
  });

  it('joins ids and a group, and reports both problems', () => {
    expect(selectIds(scene, [2], 'a')).toEqual({ ids: new Set([2, 0, 1]) });
    expect(selectIds(scene, [9], 'zz')).toEqual({ errors: ['unknown id 9', "unknown group 'zz' (groups: a)"] });
    expect(selectIds(scene, undefined, undefined)).toEqual({ errors: ['give ids or group'] });
  });

  it('counts what was deleted', () => {
    const one = deleteGaussians(scene, 3, { ids: [0] });
    expect(one).toMatchObject({ ok: true, text: 'Deleted 1 Gaussian.' });
    const two = deleteGaussians(scene, 3, { group: 'a' });
    expect(two).toMatchObject({ ok: true, text: 'Deleted 2 Gaussians.' });
    if (two.ok) expect(two.records.map((r) => r.id)).toEqual([2]);
    expect(deleteGaussians(scene, 3, { ids: [9] }).ok).toBe(false);
  });
});

describe('summaries and ends', () => {
  it('summarise each group and the loose Gaussians with bounds and mean colour', () => {
    expect(describeGroups(scene)).toBe([
      "group 'a': 2 Gaussians, centroid [0.0, 1.0, 4.0], bbox [-1.0, 0.0, 3.0] to [1.0, 2.0, 5.0], mean color #800080",
      'no group: 1 Gaussian, centroid [0.0, 0.0, 0.0], bbox [0.0, 0.0, 0.0] to [0.0, 0.0, 0.0], mean color #00ff00',
    ].join('\n'));
    expect(describeGroups([])).toBe('The scene is empty.');
  });

  it('say which cap cut the episode short', () => {
    expect(capText('max_tokens', { max_tokens: 5000 })).toBe('The episode was cut short: the max_tokens cap (5000) was reached. It ended as truncated; what was done so far is graded as it stands.');
  });

  it('end a submit as terminated and every limit as truncated', () => {
    expect([endingOf('submit'), endingOf('auto'), endingOf('cap'), endingOf(null)]).toEqual(['terminated', 'truncated', 'truncated', null]);
  });
});
