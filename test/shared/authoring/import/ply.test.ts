import { describe, expect, it } from 'vitest';
import { parsePly, PlyError, serialisePly, SH_C0 } from '../../../../src/shared/authoring/import/ply';
import { quatNormalize } from '../../../../src/shared/math/quaternion';
import { Random } from '../../../../src/shared/math/random';
import type { GaussianRecord } from '../../../../src/shared/scene/gaussian';

function randomRecords(n: number, seed: number): GaussianRecord[] {
  const rng = new Random(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    pos: [rng.uniform(-1.2, 1.2), rng.uniform(-1.2, 1.2), rng.uniform(-1.2, 1.2)],
    scale: [rng.uniform(0.005, 0.5), rng.uniform(0.005, 0.5), rng.uniform(0.005, 0.5)],
    quat: quatNormalize([rng.normal(), rng.normal(), rng.normal(), rng.normal()]),
    color: [rng.next(), rng.next(), rng.next()],
    opacity: i === 0 ? 1 : rng.uniform(0.05, 1),
  }));
}

type Prop = { name: string; type: 'float' | 'double' | 'uchar' | 'int' };
const SIZE = { float: 4, double: 8, uchar: 1, int: 4 } as const;

/** A binary PLY with the given vertex properties and rows (values in property order). */
function buildPly(props: Prop[], rows: number[][], opts: { little?: boolean; before?: string; beforeBytes?: number[] } = {}): Uint8Array {
  const little = opts.little ?? true;
  const head = [
    'ply', `format binary_${little ? 'little' : 'big'}_endian 1.0`, 'comment test',
    ...(opts.before ? [opts.before] : []),
    `element vertex ${rows.length}`, ...props.map((p) => `property ${p.type} ${p.name}`), 'end_header', '',
  ].join('\n');
  const h = new TextEncoder().encode(head);
  const pre = opts.beforeBytes ?? [];
  const stride = props.reduce((s, p) => s + SIZE[p.type], 0);
  const out = new Uint8Array(h.length + pre.length + rows.length * stride);
  out.set(h);
  out.set(pre, h.length);
  const view = new DataView(out.buffer);
  let at = h.length + pre.length;
  for (const row of rows) {
    props.forEach((p, k) => {
      if (p.type === 'float') view.setFloat32(at, row[k], little);
      else if (p.type === 'double') view.setFloat64(at, row[k], little);
      else if (p.type === 'int') view.setInt32(at, row[k], little);
      else view.setUint8(at, row[k]);
      at += SIZE[p.type];
    });
  }
  return out;
}

const GS = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];
// One Gaussian: pos (0.1, -0.2, 0.3), colour (0.5 + C0 * [1, 0, -1]), opacity 0.5, scales e^-3, unnormalised quaternion.
const ROW = [0.1, -0.2, 0.3, 1, 0, -1, 0, -3, -3, -3, 2, 0, 0, 0];

describe('3DGS ply', () => {
  it('round-trips records through the INRIA layout to float32 precision', () => {
    const recs = randomRecords(50, 1);
    const bytes = serialisePly(recs);
    const text = new TextDecoder().decode(bytes.subarray(0, 2000));
    expect(text).toContain('format binary_little_endian 1.0');
    expect(text).toContain('element vertex 50');
    expect(text).toContain('property float f_rest_44');
    expect(text.indexOf('property float nx')).toBeLessThan(text.indexOf('property float f_dc_0'));
    const back = parsePly(bytes);
    expect(back.shDegree).toBe(3);
    expect(back.warnings).toEqual(['SH degree 3 colours reduced to their view-independent (degree 0) part']);
    back.records.forEach((r, i) => {
      const a = recs[i];
      expect(r.id).toBe(i);
      for (let k = 0; k < 3; k++) {
        expect(r.pos[k]).toBeCloseTo(a.pos[k], 6);
        expect(r.color[k]).toBeCloseTo(a.color[k], 6);
        expect(r.scale[k] / a.scale[k]).toBeCloseTo(1, 6);
      }
      for (let k = 0; k < 4; k++) expect(r.quat[k]).toBeCloseTo(a.quat[k], 6);
      expect(Math.abs(r.opacity - a.opacity)).toBeLessThan(2e-6);
    });
  });

  it('matches properties by name in any order, converts, normalises and ignores unknown ones', () => {
    const order = [...GS].reverse();
    const props: Prop[] = [{ name: 'red', type: 'uchar' }, ...order.map((name): Prop => ({ name, type: name === 'x' ? 'double' : 'float' }))];
    const row = [200, ...order.map((n) => ROW[GS.indexOf(n)])];
    const { records, shDegree, warnings } = parsePly(buildPly(props, [row]));
    expect(shDegree).toBe(0);
    expect(warnings).toEqual([]);
    const r = records[0];
    expect(r.pos[0]).toBeCloseTo(0.1, 12);
    expect(r.pos[1]).toBeCloseTo(-0.2, 6);
    expect(r.color).toEqual([expect.closeTo(0.5 + SH_C0, 6), 0.5, expect.closeTo(0.5 - SH_C0, 6)]);
    expect(r.opacity).toBeCloseTo(0.5, 12);
    expect(r.scale[0]).toBeCloseTo(Math.exp(-3), 8);
    expect(r.quat).toEqual([1, 0, 0, 0]);
  });

  it('reads big-endian and ascii files and skips elements before the vertices', () => {
    const props = GS.map((name): Prop => ({ name, type: 'float' }));
    const big = parsePly(buildPly(props, [ROW, ROW], { little: false }));
    expect(big.records).toHaveLength(2);
    expect(big.records[1].pos[2]).toBeCloseTo(0.3, 6);
    const skipped = parsePly(buildPly(props, [ROW], { before: 'element meta 2\nproperty int a', beforeBytes: [1, 0, 0, 0, 2, 0, 0, 0] }));
    expect(skipped.records[0].pos[0]).toBeCloseTo(0.1, 6);
    const ascii = ['ply', 'format ascii 1.0', 'element vertex 1', ...GS.map((n) => `property float ${n}`),
      'property float f_rest_0', 'end_header', `${ROW.join(' ')} 0.5`, ''].join('\n');
    const a = parsePly(new TextEncoder().encode(ascii));
    expect(a.records[0].scale[2]).toBeCloseTo(Math.exp(-3), 8);
    expect(a.warnings[0]).toMatch(/1 f_rest properties match no SH degree/);
  });

  it('says clearly what is wrong with a bad file', () => {
    const props = GS.map((name): Prop => ({ name, type: 'float' }));
    const good = buildPly(props, [ROW, ROW, ROW]);
    expect(() => parsePly(good.subarray(0, good.length - 10))).toThrow(/truncated PLY: 3 vertices need 168 bytes but only 158 follow the header \(2 complete vertices\)/);
    expect(() => parsePly(good.subarray(0, 40))).toThrow(/no end_header/);
    expect(() => parsePly(new TextEncoder().encode('PK\u0003\u0004'))).toThrow(PlyError);
    const missing = buildPly(props.filter((p) => p.name !== 'opacity' && p.name !== 'rot_3'), [ROW.slice(0, 12)]);
    expect(() => parsePly(missing)).toThrow(/missing vertex properties opacity, rot_3/);
    const badFormat = new TextEncoder().encode('ply\nformat binary_middle_endian 1.0\nend_header\n');
    expect(() => parsePly(badFormat)).toThrow(/unknown PLY format 'binary_middle_endian'/);
    const nan = buildPly(props, [[Number.NaN, ...ROW.slice(1)]]);
    expect(() => parsePly(nan)).toThrow(/vertex 0: x is NaN/);
    const shortAscii = ['ply', 'format ascii 1.0', 'element vertex 2', ...GS.map((n) => `property float ${n}`), 'end_header', ROW.join(' ')].join('\n');
    expect(() => parsePly(new TextEncoder().encode(shortAscii))).toThrow(/truncated PLY body: ran out of values in element 'vertex' row 1/);
  });

  it('clamps out-of-range colours and repairs zero quaternions with warnings', () => {
    const props = GS.map((name): Prop => ({ name, type: 'float' }));
    const row = [...ROW];
    row[3] = 5; // 0.5 + C0 * 5 > 1
    row.splice(10, 4, 0, 0, 0, 0);
    const { records, warnings } = parsePly(buildPly(props, [row]));
    expect(records[0].color[0]).toBe(1);
    expect(records[0].quat).toEqual([1, 0, 0, 0]);
    expect(warnings).toEqual(['1 Gaussian(s) had colours outside [0, 1]; clamped', '1 Gaussian(s) had a zero quaternion; set to identity']);
  });
});
