import { describe, expect, it } from 'vitest';
import { partAabb } from '../../../src/shared/authoring/geometry';
import {
  objectWarnings, ObjectValidationError, colorRgb, parseObject, validateObject, type Part,
} from '../../../src/shared/authoring/primitives';

const ok = (part: Record<string, unknown>) => ({ name: 't', parts: [{ pos: [0, 0, 0], color: '#336699', ...part }] });

function errors(input: unknown): string[] {
  const res = validateObject(input);
  return res.ok ? [] : res.errors;
}

describe('procedural object schema', () => {
  it('accepts every kind with its own size form', () => {
    for (const part of [
      { kind: 'sphere', size: 0.3 },
      { kind: 'sphere', size: [0.3, 0.2, 0.1] },
      { kind: 'box', size: [0.2, 0.4, 0.6], rot: [10, 20, 30] },
      { kind: 'cylinder', size: { radius: 0.2, height: 0.5 }, group: 'g' },
      { kind: 'cone', size: { radius: 0.2, height: 0.5 }, color: [0.1, 0.2, 0.3] },
    ]) expect(errors(ok(part))).toEqual([]);
  });

  it('names the part, its group and kind in every error', () => {
    const input = {
      name: 't',
      parts: [
        { kind: 'sphere', pos: [0, 0, 0], size: 0.2, color: '#ffffff' },
        { kind: 'pyramid', pos: [0, 0, 0], size: 0.2, color: '#ffffff', group: 'roof' },
        { kind: 'sphere', pos: [0, 0, 0], size: 0, color: '#ffffff', group: 'head' },
        { kind: 'box', pos: [0, 0, Number.NaN], size: [1, 1, 1], color: '#cacc cb' },
        { kind: 'cylinder', pos: [0, 0, 0], size: { radius: -1, height: 0.2 }, color: '#000000' },
        { kind: 'cone', pos: [0, 0, 0.8], size: { radius: 0.1, height: 0.5 }, color: '#000000', group: 'nose' },
      ],
    };
    const errs = errors(input);
    expect(errs).toContain('part 1 (roof, pyramid): unknown kind "pyramid" (use sphere, box, cylinder, cone)');
    expect(errs).toContain('part 2 (head, sphere): size: radius must be > 0 (got 0)');
    expect(errs).toContain('part 3 (box): pos[2] must be a finite number (got NaN)');
    expect(errs).toContain(`part 3 (box): color: unknown color "#cacc cb" (use '#rrggbb' or [r,g,b] in [0, 1])`);
    expect(errs).toContain('part 4 (cylinder): size: radius must be > 0 (got -1)');
    expect(errs.some((e) => e.startsWith('part 5 (nose, cone): cone leaves the bounds cube') && e.includes('z in [0.550, 1.050]'))).toBe(true);
    expect(errs.some((e) => e.startsWith('part 0'))).toBe(false);
    expect(() => parseObject(input)).toThrow(ObjectValidationError);
  });

  it('rejects degenerate and malformed sizes for each kind', () => {
    expect(errors(ok({ kind: 'box', size: [1, 2] }))).toEqual(['part 0 (box): size must be three numbers > 0']);
    expect(errors(ok({ kind: 'box', size: [0.1, 0, 0.1] }))[0]).toMatch(/size\[1\] must be > 0/);
    expect(errors(ok({ kind: 'sphere', size: Number.POSITIVE_INFINITY }))).toHaveLength(1);
    expect(errors(ok({ kind: 'cylinder', size: 0.3 }))).toEqual(['part 0 (cylinder): size must be { radius, height } with both > 0']);
    expect(errors(ok({ kind: 'cone', size: { radius: 0.3 } }))).toEqual(['part 0 (cone): size: height is missing']);
    expect(errors(ok({ kind: 'box', size: [0.1, 0.1, 0.1], color: [0.5, 0.5, 2] }))[0]).toMatch(/color b must be in \[0, 1\]/);
    expect(errors({ name: '', parts: [] })).toEqual(['name must not be empty', 'parts: an object needs at least one part']);
  });

  it('checks the bounds with the exact world AABB of rotated parts', () => {
    // A 1.2 x 0.2 x 0.2 box at x = 0.35: along X it spans [-0.25, 0.95]; turned 90 deg about Z
    // it spans x in [0.25, 0.45]; turned 30 deg its x half extent is 0.6 cos 30 + 0.1 sin 30 = 0.570.
    const box = (rot: number[]) => ok({ kind: 'box', pos: [0.35, 0, 0], size: [1.2, 0.2, 0.2], rot });
    expect(errors(box([0, 0, 0]))).toEqual([]);
    expect(errors(box([0, 0, 90]))).toEqual([]);
    expect(errors(box([0, 0, 30]))).toEqual([]);
    expect(errors({ ...box([0, 0, 0]), parts: [{ ...box([0, 0, 0]).parts[0], pos: [0.45, 0, 0] }] })).toEqual([
      'part 0 (box): box leaves the bounds cube [-1, 1]^3: x in [-0.150, 1.050]',
    ]);
    const tall = ok({ kind: 'cylinder', pos: [0, 0, 0.2], size: { radius: 0.1, height: 1.6 } });
    expect(errors(tall)).toEqual([]);
    // Tipped 90 deg about X the cylinder lies along Y and still fits; a cone's tip is the only part that reaches z = +h/2.
    expect(errors({ ...tall, parts: [{ ...tall.parts[0], rot: [90, 0, 0] }] })).toEqual([]);
    // Tipped 45 deg the tip reaches z = 0.912 and the base rim 0.7 (a cylinder would poke out);
    // tipped 135 deg the base rim is on top and leaves the cube.
    const cone = ok({ kind: 'cone', pos: [0, 0, 0.7], size: { radius: 0.3, height: 0.6 }, rot: [45, 0, 0] });
    expect(errors(cone)).toEqual([]);
    expect(errors({ ...cone, parts: [{ ...cone.parts[0], rot: [135, 0, 0] }] })).toEqual([
      'part 0 (cone): cone leaves the bounds cube [-1, 1]^3: z in [0.488, 1.124]',
    ]);
    expect(errors(ok({ kind: 'sphere', pos: [0.75, 0, 0], size: [0.3, 0.1, 0.1] }))[0]).toMatch(/x in \[0\.450, 1\.050\]/);
    expect(errors(ok({ kind: 'sphere', pos: [0.75, 0, 0], size: [0.3, 0.1, 0.1], rot: [0, 0, 90] }))).toEqual([]);
  });
});

describe('partAabb', () => {
  it('is tight: sampled surface points reach every face of the box', () => {
    const parts: Part[] = [
      { kind: 'box', pos: [0.1, -0.2, 0.3], rot: [20, -35, 70], size: [0.5, 0.3, 0.2], color: '#000000' },
      { kind: 'sphere', pos: [0, 0, 0], rot: [30, 40, 50], size: [0.4, 0.2, 0.1], color: '#000000' },
      { kind: 'cylinder', pos: [0, 0.1, 0], rot: [50, 10, -20], size: { radius: 0.2, height: 0.6 }, color: '#000000' },
      { kind: 'cone', pos: [0, 0, 0.1], rot: [-70, 25, 15], size: { radius: 0.25, height: 0.5 }, color: '#000000' },
    ];
    for (const part of parts) {
      const box = partAabb(part);
      const pts = surfaceSamples(part);
      for (let k = 0; k < 3; k++) {
        const lo = Math.min(...pts.map((p) => p[k]));
        const hi = Math.max(...pts.map((p) => p[k]));
        expect(lo).toBeGreaterThanOrEqual(box.min[k] - 1e-9);
        expect(hi).toBeLessThanOrEqual(box.max[k] + 1e-9);
        expect(lo - box.min[k]).toBeLessThan(2e-3);
        expect(box.max[k] - hi).toBeLessThan(2e-3);
      }
    }
  });
});

/** Dense samples of the part's surface in world space (via the same Euler convention). */
function surfaceSamples(part: Part): number[][] {
  const d = Math.PI / 180;
  const [rx, ry, rz] = (part.rot ?? [0, 0, 0]).map((v) => v * d);
  const rot = (p: number[]): number[] => {
    let [x, y, z] = p;
    [y, z] = [y * Math.cos(rx) - z * Math.sin(rx), y * Math.sin(rx) + z * Math.cos(rx)];
    [x, z] = [x * Math.cos(ry) + z * Math.sin(ry), -x * Math.sin(ry) + z * Math.cos(ry)];
    [x, y] = [x * Math.cos(rz) - y * Math.sin(rz), x * Math.sin(rz) + y * Math.cos(rz)];
    return [x + part.pos[0], y + part.pos[1], z + part.pos[2]];
  };
  const out: number[][] = [];
  const N = 60;
  for (let i = 0; i <= N; i++) {
    for (let j = 0; j <= N; j++) {
      const u = i / N;
      const a = (2 * Math.PI * j) / N;
      if (part.kind === 'box') {
        const [sx, sy, sz] = part.size.map((v) => v / 2);
        for (const s of [-1, 1]) {
          out.push(rot([s * sx, (2 * u - 1) * sy, ((2 * j) / N - 1) * sz]));
          out.push(rot([(2 * u - 1) * sx, s * sy, ((2 * j) / N - 1) * sz]));
          out.push(rot([(2 * u - 1) * sx, ((2 * j) / N - 1) * sy, s * sz]));
        }
      } else if (part.kind === 'sphere') {
        const r = typeof part.size === 'number' ? [part.size, part.size, part.size] : part.size;
        const p = Math.PI * u;
        out.push(rot([r[0] * Math.sin(p) * Math.cos(a), r[1] * Math.sin(p) * Math.sin(a), r[2] * Math.cos(p)]));
      } else {
        const { radius, height } = part.size;
        const z = -height / 2 + u * height;
        const rr = part.kind === 'cylinder' ? radius : radius * (1 - u);
        out.push(rot([rr * Math.cos(a), rr * Math.sin(a), z]));
      }
    }
  }
  return out;
}

describe('colours and warnings', () => {
  it('parses hex and tuple colours', () => {
    expect(colorRgb('#ff8000')).toEqual([1, 128 / 255, 0]);
    expect(colorRgb([0.1, 0.2, 0.3])).toEqual([0.1, 0.2, 0.3]);
  });

  it('warns about specks and needles but not thin plates', () => {
    const obj = parseObject({
      name: 'w',
      parts: [
        { kind: 'sphere', pos: [0, 0, 0], size: 0.01, color: '#000000' },
        { kind: 'box', pos: [0, 0, 0], size: [0.5, 0.5, 0.002], color: '#000000', group: 'plate' },
        { kind: 'cylinder', pos: [0, 0, 0], size: { radius: 0.008, height: 1 }, color: '#000000', group: 'wire' },
        { kind: 'sphere', pos: [0, 0, 0], size: 0.03, color: '#000000' },
      ],
    });
    const w = objectWarnings(obj);
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/^part 0 \(sphere\): only 1\.2 px across/);
    expect(w[1]).toMatch(/^part 2 \(wire, cylinder\): only 1\.0 px across/);
  });
});
