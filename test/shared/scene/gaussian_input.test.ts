import { describe, expect, it } from 'vitest';
import { parseCompactInput, parseGaussianInput, parseSceneDocument, rotationFromInput } from '../../../src/shared/scene/gaussian_input';
import { eulerToQuat } from '../../../src/shared/math/quaternion';

describe('parseGaussianInput', () => {
  it('fills defaults and expands a sphere scale', () => {
    const r = parseGaussianInput({ pos: [0.1, 0.2, 0.3], scale: 0.127, color: '#15952d', group: 'ball' }, 0, 4);
    expect(r).toEqual({
      ok: true,
      record: { id: 4, pos: [0.1, 0.2, 0.3], scale: [0.127, 0.127, 0.127], quat: [1, 0, 0, 0], color: [0x15 / 255, 0x95 / 255, 0x2d / 255], opacity: 1, group: 'ball' },
    });
    const d = parseGaussianInput({ pos: [0, 0, 0], color: [1, 1, 1] }, 0, 0);
    expect(d.ok && d.record.scale).toEqual([0.05, 0.05, 0.05]);
  });

  it('reads Euler degrees and near-unit quaternions, normalising the latter', () => {
    const e = parseGaussianInput({ pos: [0, 0, 0], color: '#000000', rot: [10, 20, 30] }, 0, 0);
    expect(e.ok && e.record.quat).toEqual(eulerToQuat([10, 20, 30]));
    const q = rotationFromInput([1.0005, 0, 0, 0]);
    expect(q).toEqual({ ok: true, quat: [1, 0, 0, 0] });
  });

  it('rejects bad items with messages naming the index', () => {
    const bad = (v: unknown): string => {
      const r = parseGaussianInput(v, 28, 0);
      if (r.ok) throw new Error('expected a failure');
      return r.error;
    };
    expect(bad({ pos: [0, 0, 0], color: '#cacc cb' })).toBe("#28: unknown color '#cacc cb' (use '#rrggbb' or [r,g,b])");
    expect(bad({ pos: [0, Number.NaN, 0], color: '#000000' })).toMatch(/^#28: pos\[1\] must be a finite number/);
    expect(bad({ pos: [0, 0, Infinity], color: '#000000' })).toMatch(/^#28: pos\[2\] must be a finite number/);
    expect(bad({ pos: [0, 0, 0], color: '#000000', scale: [0.1, -0.1, 0.1] })).toBe('#28: scale [0.1, -0.1, 0.1] must be positive (standard deviations)');
    expect(bad({ pos: [0, 0, 0], color: '#000000', rot: [1, 1, 0, 0] })).toMatch(/^#28: quaternion \[1, 1, 0, 0\] has length 1\.41421, not 1/);
    expect(bad({ pos: [0, 0], color: '#000000' })).toMatch(/^#28: pos/);
  });
});

describe('parseCompactInput and parseSceneDocument', () => {
  it('accepts loose and compact items together, ids defaulting to the index', () => {
    const doc = {
      gaussians: [
        { pos: [-0.4, -0.12, 0.3], scale: 0.127, color: '#15952d', group: 'ball' },
        { p: [0, 0, 0], s: [0.1, 0.2, 0.3], q: [0, 0, 0, 1], c: [0.5, 0.5, 0.5], o: 0.7, g: 'top' },
        { id: 12, p: [0, 0, 0], s: [0.1, 0.2, 0.3], q: [1, 0, 0, 0], c: [0.5, 0.5, 0.5], o: 0.7 },
      ],
    };
    const r = parseSceneDocument(doc);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.records.map((x) => x.id)).toEqual([0, 1, 12]);
    expect(r.records[1]).toEqual({ id: 1, pos: [0, 0, 0], scale: [0.1, 0.2, 0.3], quat: [0, 0, 0, 1], color: [0.5, 0.5, 0.5], opacity: 0.7, group: 'top' });
  });

  it('lists every bad item', () => {
    const r = parseSceneDocument({
      gaussians: [
        { pos: [0, 0, 0], color: 'blue' },
        { pos: [0, 0, 0], color: '#0000ff' },
        { p: [0, 0, 0], s: [0.1, 0.1, 0.1], q: [0.5, 0, 0, 0], c: [0, 0, 0], o: 1 },
      ],
    });
    expect(r).toEqual({
      ok: false,
      errors: [
        "#0: unknown color 'blue' (use '#rrggbb' or [r,g,b])",
        '#2: quaternion [0.5, 0, 0, 0] has length 0.500000, not 1 (give a unit [w, x, y, z] or Euler degrees [x, y, z])',
      ],
    });
    expect(parseSceneDocument([1, 2])).toEqual({ ok: false, errors: ['a scene file is {"gaussians": [...]}'] });
    expect(parseCompactInput({ p: [0, 0, 0] }, 3, 3)).toMatchObject({ ok: false, error: expect.stringMatching(/^#3: /) });
  });
});
