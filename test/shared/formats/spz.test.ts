// SPZ v2 (no independent writer exists for it): a payload built byte by byte from the format's
// definition decodes to the values those bytes mean; and v3 encode/decode keep a scene within
// the format's quantisation.
import { describe, expect, it } from 'vitest';
import { decodeSpz, encodeSpzV3, parseSpzHeader, spzLegacyStreams, SPZ_MAGIC } from '../../../src/shared/formats/spz';
import { SH_C0 } from '../../../src/shared/formats/types';
import { emptySplats } from '../../../src/shared/scene/splats';

describe('SPZ', () => {
  it('v2: 24-bit positions, uint8 alpha, colour, log scale, xyz rotation, SH', () => {
    const n = 1;
    const bytes = new Uint8Array(16 + n * (9 + 1 + 3 + 3 + 3 + 9));
    const v = new DataView(bytes.buffer);
    v.setUint32(0, SPZ_MAGIC, true);
    v.setUint32(4, 2, true);
    v.setUint32(8, n, true);
    v.setUint8(12, 1); // SH degree 1
    v.setUint8(13, 8); // 8 fractional bits
    let at = 16;
    // x = 1.5 (384), y = -2 (-512 as 24-bit two's complement), z = 0
    bytes.set([384 & 255, 384 >> 8, 0, 0x00, 0xfe, 0xff, 0, 0, 0], at);
    at += 9;
    bytes[at++] = 51; // alpha 51 / 255 = 0.2
    bytes.set([128, 255, 0], at); // colours: f_dc = (b / 255 - 0.5) / 0.15
    at += 3;
    bytes.set([160, 144, 176], at); // log scales b / 16 - 10: 0, -1, 1
    at += 3;
    bytes.set([128, 128, 128], at); // rotation x y z = b / 127.5 - 1 (about 0): identity
    at += 3;
    bytes.set([128, 192, 64, 0, 0, 0, 255, 255, 255], at); // SH (b - 128) / 128, [K, 3]
    const h = parseSpzHeader(bytes, 10);
    const f = decodeSpz(h, spzLegacyStreams(bytes, h));
    expect(f.detected).toBe('Niantic SPZ v2 (SH degree 1)');
    expect(Array.from(f.splats.means)).toEqual([1.5, -2, 0]);
    expect(f.splats.opacities[0]).toBeCloseTo(0.2, 6);
    [128, 255, 0].forEach((b, c) => expect(f.splats.colors[c]).toBeCloseTo(0.5 + SH_C0 * ((b / 255 - 0.5) / 0.15), 6));
    [0, -1, 1].forEach((l, a) => expect(f.splats.scales[a]).toBeCloseTo(Math.exp(l), 6));
    expect(f.splats.quats[0]).toBeCloseTo(1, 4);
    expect(Array.from(f.splats.sh?.rest ?? [])).toEqual([0, 0.5, -0.5, -1, -1, -1, 127 / 128, 127 / 128, 127 / 128]);
  });

  it('v3 encode then decode stays within the quantisation', () => {
    const s = emptySplats(50);
    for (let i = 0; i < 50; i++) {
      s.means.set([i / 7 - 3, 2 - i / 11, (i % 5) / 3], i * 3);
      s.scales.set([0.01 + i / 1000, 0.05, 0.2], i * 3);
      s.colors.set([(i % 10) / 10, 0.3, 0.9], i * 3);
      const q = [1, i / 50, -0.2, 0.1];
      const l = Math.hypot(...q);
      s.quats.set(q.map((x) => x / l), i * 4);
      s.opacities[i] = (i + 1) / 51;
    }
    const bytes = encodeSpzV3(s, true);
    const h = parseSpzHeader(bytes, 100);
    const back = decodeSpz(h, spzLegacyStreams(bytes, h));
    expect(back.antialiased).toBe(true);
    for (let i = 0; i < 150; i++) {
      expect(Math.abs(back.splats.means[i] - s.means[i])).toBeLessThan(1 / 4096);
      expect(Math.abs(Math.log(back.splats.scales[i] / s.scales[i]))).toBeLessThan(1 / 32 + 1e-6);
      expect(Math.abs(back.splats.colors[i] - s.colors[i])).toBeLessThan(0.004);
    }
    for (let i = 0; i < 50; i++) {
      const dot = [0, 1, 2, 3].reduce((acc, c) => acc + back.splats.quats[i * 4 + c] * s.quats[i * 4 + c], 0);
      expect(Math.abs(dot)).toBeGreaterThan(0.9999);
    }
  });
});
