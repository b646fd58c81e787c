// The one scene parser (src/shared/scene/input.ts) under the one policy (src/shared/scene/policy.ts):
// loose and compact items, defaults, every bad item named by index, and the same refusals and
// clamps the environment's add_gaussians applies (the probe scene of issue 17).
import { describe, expect, it } from 'vitest';
import { Episode } from '../../../src/shared/kinds/splatbench/episode';
import { eulerToQuat } from '../../../src/shared/math/quaternion';
import { parseSceneDocument, parseSceneItem } from '../../../src/shared/scene/input';
import { CAPTURE_POLICY } from '../../../src/shared/scene/policy';

const item = (v: unknown, index = 0) => parseSceneItem(v, index);

describe('parseSceneItem', () => {
  it('fills defaults and expands a sphere scale', () => {
    const r = parseSceneItem({ pos: [0.1, 0.2, 0.3], scale: 0.127, color: '#15952d', group: 'ball' }, 4);
    expect(r).toEqual({
      ok: true,
      record: { id: 4, pos: [0.1, 0.2, 0.3], scale: [0.127, 0.127, 0.127], quat: [1, 0, 0, 0], color: [0x15 / 255, 0x95 / 255, 0x2d / 255], opacity: 1, group: 'ball' },
      warnings: [],
    });
    const d = item({ pos: [0, 0, 0], color: [1, 1, 1] });
    expect(d.ok && d.record.scale).toEqual([0.05, 0.05, 0.05]);
  });

  it('reads Euler degrees and quaternions, normalising the latter', () => {
    const e = item({ pos: [0, 0, 0], color: '#000000', rot: [10, 20, 30] });
    if (!e.ok) throw new Error(e.error);
    eulerToQuat([10, 20, 30]).forEach((v, i) => expect(e.record.quat[i]).toBeCloseTo(v, 14));
    const q = item({ pos: [0, 0, 0], color: '#000000', rot: [2, 0, 0, 0] });
    expect(q.ok && q.record.quat).toEqual([1, 0, 0, 0]);
  });

  it('rejects bad items with messages naming the index', () => {
    const bad = (v: unknown): string => {
      const r = parseSceneItem(v, 28);
      if (r.ok) throw new Error('expected a failure');
      return r.error;
    };
    expect(bad({ pos: [0, 0, 0], color: '#cacc cb' })).toBe("#28: unknown color '#cacc cb' (use '#rrggbb' or [r,g,b])");
    expect(bad({ pos: [0, Number.NaN, 0], color: '#000000' })).toMatch(/^#28: pos\[1\]/);
    expect(bad({ pos: [0, 0, Infinity], color: '#000000' })).toMatch(/^#28: pos\[2\]/);
    expect(bad({ pos: [0, 0, 0], color: '#000000', rot: [0, 0, 0, 0] })).toMatch(/^#28: quaternion \[0,0,0,0\] has zero length/);
    expect(bad({ pos: [0, 0], color: '#000000' })).toMatch(/^#28: pos/);
    expect(bad({ p: [0, 0, 0] })).toMatch(/^#28: /);
  });
});

describe('parseSceneDocument', () => {
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

  it('lists every bad item and refuses repeated ids', () => {
    const r = parseSceneDocument({ gaussians: [{ pos: [0, 0, 0], color: 'blue' }, { pos: [0, 0, 0], color: '#0000ff' }, { p: [9, 0, 0], s: [0.1, 0.1, 0.1], q: [1, 0, 0, 0], c: [0, 0, 0], o: 1 }] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toBe("#0: unknown color 'blue' (use '#rrggbb' or [r,g,b])");
    expect(r.errors[1]).toMatch(/^#2: position \[9, 0, 0\] is outside the bounds/);
    expect(parseSceneDocument([1, 2])).toEqual({ ok: false, errors: ['a scene file is {"gaussians": [...]}'] });
    const twice = parseSceneDocument({ gaussians: [{ id: 3, p: [0, 0, 0], s: [0.1, 0.1, 0.1], q: [1, 0, 0, 0], c: [0, 0, 0], o: 1 }, { id: 3, p: [0, 0, 0], s: [0.1, 0.1, 0.1], q: [1, 0, 0, 0], c: [0, 0, 0], o: 1 }] });
    expect(twice).toEqual({ ok: false, errors: ['id 3 appears twice'] });
  });

  it('treats the probe scene exactly as the environment does (refusal, clamps and warnings)', () => {
    const episode = (): Episode => new Episode({ kind: 'sculpt', maxGaussians: 300, maxToolCalls: 40, maxRenders: 16, referenceViews: [] });
    const outside = { pos: [3, 0, 0], scale: 2, opacity: 0.001, color: '#ff0000' };
    expect(episode().step({ tool: 'add_gaussians', args: { gaussians: [outside] } }).ok).toBe(false);
    expect(parseSceneDocument({ gaussians: [outside] }).ok).toBe(false);
    expect(parseSceneDocument({ gaussians: [outside] }, CAPTURE_POLICY).ok).toBe(true);

    const inside = { pos: [0.3, 0, 0], scale: 2, opacity: 0.001, color: '#ff0000' };
    const env = episode();
    const step = env.step({ tool: 'add_gaussians', args: { gaussians: [inside] } });
    const doc = parseSceneDocument({ gaussians: [inside] });
    if (!doc.ok) throw new Error(doc.errors.join('; '));
    expect(doc.records[0]).toEqual(env.records()[0]);
    expect(doc.records[0]).toMatchObject({ scale: [0.5, 0.5, 0.5], opacity: 0.05 });
    expect(doc.warnings).toEqual(['#0: scale 2 clamped to [0.5, 0.5, 0.5]', '#0: opacity 0.001 raised to 0.05']);
    for (const w of doc.warnings) expect(step.body).toContain(w.replace(/^#0: /, ''));
  });
});
