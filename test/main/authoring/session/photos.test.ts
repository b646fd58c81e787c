// The photos' 8-bit quantising (src/main/authoring/session/photos.ts quantise, quantiseMask) is
// computed without the PNG codec (issue 38 item 1): it must give the same float32 values as the
// round trip it replaced, writePng then readViews (encodePng, decodePng, toRgb), on random images
// with out-of-range values, NaN and every 8-bit boundary.
import { describe, expect, it } from 'vitest';
import { quantise, quantiseMask } from '../../../../src/main/authoring/session/photos';
import { decodePng, encodePng, toRgb } from '../../../../src/main/io/png';
import { mulberry32 } from '../../../../src/shared/math/random';

function samples(n: number, seed: number): Float32Array {
  const rng = mulberry32(seed);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = rng.next() * 1.2 - 0.1;
  // Every 8-bit step's midpoint (where rounding turns), the ends and NaN.
  for (let b = 0; b < 256 && b < n; b++) data[b] = (b + 0.5) / 255;
  data[n - 1] = Number.NaN;
  data[n - 2] = 1;
  data[n - 3] = 0;
  return data;
}

describe('photo quantising', () => {
  it('equals the PNG round trip for an RGB photo', () => {
    const img = { width: 37, height: 23, data: samples(37 * 23 * 3, 7) };
    const viaPng = toRgb(decodePng(encodePng(img)));
    expect(Buffer.from(quantise(img).data.buffer).equals(Buffer.from(viaPng.data.buffer))).toBe(true);
  });

  it('equals the PNG round trip for a grey mask', () => {
    const mask = samples(41 * 19, 11);
    const grey = toRgb(decodePng(encodePng({ width: 41, height: 19, channels: 1, data: mask })));
    const viaPng = Float32Array.from({ length: mask.length }, (_, i) => grey.data[i * 3]);
    expect(Buffer.from(quantiseMask(mask, 41, 19).buffer).equals(Buffer.from(viaPng.buffer))).toBe(true);
  });
});
