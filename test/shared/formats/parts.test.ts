// Small parts of the format readers, each a survivor of `npm run mutation -- --folder formats`
// (docs/MUTATION.md): every PLY scalar type is read with its own width and sign, a .splat file is
// neither antialiased nor 2D, the repair notes count what was repaired, and only a .json file whose
// text starts with `{` (after white space) is a SOG meta file.
import { describe, expect, it } from 'vitest';
import { readScalar } from '../../../src/shared/formats/ply-header';
import { SplatDecoder, SPLAT_ROW_BYTES } from '../../../src/shared/formats/splat';
import { decodeWhole, SplatsBuilder } from '../../../src/shared/formats/types';
import { detectFormat } from '../../../src/main/formats/detect';

describe('readScalar', () => {
  it('reads each type with its width, sign and byte order', () => {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint8(0, 0xff);
    expect(readScalar(view, 0, 'i8', true)).toBe(-1);
    expect(readScalar(view, 0, 'u8', true)).toBe(255);
    view.setInt16(0, -2, true);
    expect(readScalar(view, 0, 'i16', true)).toBe(-2);
    expect(readScalar(view, 0, 'u16', true)).toBe(0xfffe);
    view.setInt32(0, -3, false);
    expect(readScalar(view, 0, 'i32', false)).toBe(-3);
    expect(readScalar(view, 0, 'u32', false)).toBe(0xfffffffd);
    view.setFloat32(0, 1.5, true);
    expect(readScalar(view, 0, 'f32', true)).toBe(1.5);
    view.setFloat64(0, -0.25, true);
    expect(readScalar(view, 0, 'f64', true)).toBe(-0.25);
  });
});

describe('.splat', () => {
  it('reads as neither antialiased nor flat', () => {
    const bytes = new Uint8Array(SPLAT_ROW_BYTES);
    const view = new DataView(bytes.buffer);
    [0.1, 0.1, 0.1].forEach((s, i) => view.setFloat32(12 + 4 * i, s, true));
    bytes.set([255, 0, 0, 255, 255, 128, 128, 128], 24);
    const data = decodeWhole(new SplatDecoder(bytes.byteLength, { maxRows: 10 }), bytes, '.splat');
    expect(data).toMatchObject({ antialiased: false, flat2d: false, shDegree: 0 });
  });
});

describe('repair notes', () => {
  it('count the zero quaternions and the non-finite positions, and say nothing when none', () => {
    const b = new SplatsBuilder(3, 0);
    expect(b.notes()).toEqual([]);
    b.quat(0, 0, 0, 0, 0);
    b.quat(1, Number.NaN, 0, 0, 0);
    b.position(2, Number.POSITIVE_INFINITY, 0, 0);
    expect(b.notes()).toEqual(['2 Gaussian(s) had a zero or non-finite quaternion; set to identity', '1 Gaussian(s) have a non-finite position']);
  });
});

describe('detectFormat', () => {
  const text = (s: string): Uint8Array => new TextEncoder().encode(s);
  it('takes a .json file as SOG meta only when it starts with {', () => {
    expect(detectFormat(text('  {"version": 2}'), 'scene/meta.json', 20)).toBe('sog-meta');
    expect(() => detectFormat(text('[1, 2]'), 'scene/meta.json', 6)).toThrow();
    expect(() => detectFormat(text('{"version": 2}'), 'scene/meta.txt', 14)).toThrow();
  });
});
