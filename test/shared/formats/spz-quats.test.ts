// SPZ v2 rotations whose stored x, y, z are longer than a unit vector (w is then 0): the decoder
// divides by the length, so the quaternion it returns is unit length; the committed SPZ cases only
// have near-unit rotations, where dividing and multiplying by the length agree (docs/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { decodeSpz, parseSpzHeader, spzLegacyStreams, SPZ_MAGIC } from '../../../src/shared/formats/spz';

/** One Gaussian, SH degree 0, rotation bytes as given (x y z = b / 127.5 - 1). */
function v2WithRotation(rot: [number, number, number]): Uint8Array {
  const bytes = new Uint8Array(16 + 9 + 1 + 3 + 3 + 3);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, SPZ_MAGIC, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, 1, true);
  v.setUint8(12, 0);
  v.setUint8(13, 8);
  bytes.set([128, 128, 128], 16 + 9 + 1 + 3); // log scales 0
  bytes.set(rot, 16 + 9 + 1 + 3 + 3);
  return bytes;
}

describe('SPZ v2 rotation normalisation', () => {
  it('returns a unit quaternion along the stored direction when x, y, z are longer than 1', () => {
    const bytes = v2WithRotation([255, 255, 0]); // x = 1, y = 1, z = -1: length sqrt(3), w = 0
    const h = parseSpzHeader(bytes, 10);
    const q = Array.from(decodeSpz(h, spzLegacyStreams(bytes, h)).splats.quats);
    const s = 1 / Math.sqrt(3);
    [0, s, s, -s].forEach((want, c) => expect(q[c]).toBeCloseTo(want, 6));
    expect(Math.hypot(...q)).toBeCloseTo(1, 6);
  });
});
