// PNG codec tests: handcrafted files with literal filtered bytes for every colour type, bit
// depth and filter; round trips; corrupt and truncated input; real files from the data folder.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testDataDir } from '../../helpers/data';
import { PngError, crc32, decodePng, encodePng, readPng, toRgb, toRgba } from '../../../src/main/io/png';
import { skipWithout } from '../../helpers/optional';

function chunk(type: string, data: number[] | Uint8Array): number[] {
  const bytes = Uint8Array.from(data);
  const typeBytes = Uint8Array.from(type, (c) => c.charCodeAt(0));
  const u32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  return [...u32(bytes.length), ...typeBytes, ...bytes, ...u32(crc32(typeBytes, bytes))];
}

interface Spec {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  rows: number[][]; // each row starts with its filter byte
  plte?: number[];
  trns?: number[];
  interlace?: number;
}

function makePng(s: Spec): Uint8Array {
  const u32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  const ihdr = [...u32(s.width), ...u32(s.height), s.depth, s.colorType, 0, 0, s.interlace ?? 0];
  const out = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk('IHDR', ihdr)];
  if (s.plte) out.push(...chunk('PLTE', s.plte));
  if (s.trns) out.push(...chunk('tRNS', s.trns));
  out.push(...chunk('IDAT', deflateSync(Uint8Array.from(s.rows.flat()))), ...chunk('IEND', []));
  return Uint8Array.from(out);
}

const bytes = (img: { data: Float32Array }, max = 255) => Array.from(img.data, (v) => Math.round(v * max));

describe('decodePng, handcrafted', () => {
  it('grey 8-bit, filter None', () => {
    const img = decodePng(makePng({ width: 3, height: 2, depth: 8, colorType: 0, rows: [[0, 0, 128, 255], [0, 10, 20, 30]] }));
    expect(img).toMatchObject({ width: 3, height: 2, channels: 1 });
    expect(bytes(img)).toEqual([0, 128, 255, 10, 20, 30]);
  });

  it('RGB 8-bit, filters Sub and Up', () => {
    const rows = [[1, 10, 20, 30, 5, 5, 5], [2, 2, 2, 2, 5, 5, 5]];
    const img = decodePng(makePng({ width: 2, height: 2, depth: 8, colorType: 2, rows }));
    expect(img.channels).toBe(3);
    expect(bytes(img)).toEqual([10, 20, 30, 15, 25, 35, 12, 22, 32, 20, 30, 40]);
  });

  it('filter Average (floor of the mean, wrapping mod 256)', () => {
    const rows = [[0, 100, 50, 200], [3, 10, 25, 206]];
    expect(bytes(decodePng(makePng({ width: 3, height: 2, depth: 8, colorType: 0, rows })))).toEqual([100, 50, 200, 60, 80, 90]);
  });

  it('filter Paeth (ties prefer a, then b)', () => {
    const rows = [[0, 100, 120], [4, 246, 10]];
    expect(bytes(decodePng(makePng({ width: 2, height: 2, depth: 8, colorType: 0, rows })))).toEqual([100, 120, 90, 130]);
  });

  it('Sub filter uses the whole pixel (bpp 8) at 16-bit RGBA', () => {
    const px0 = [0x12, 0x34, 0xff, 0xff, 0, 0, 0x80, 0x00];
    const rows = [[1, ...px0, 0, 1, 0, 0, 0, 0, 0, 0]];
    const img = decodePng(makePng({ width: 2, height: 1, depth: 16, colorType: 6, rows }));
    expect(img.channels).toBe(4);
    expect(bytes(img, 65535)).toEqual([0x1234, 0xffff, 0, 0x8000, 0x1235, 0xffff, 0, 0x8000]);
  });

  it('grey+alpha 8-bit', () => {
    const img = decodePng(makePng({ width: 2, height: 1, depth: 8, colorType: 4, rows: [[0, 50, 255, 200, 0]] }));
    expect(img.channels).toBe(2);
    expect(bytes(img)).toEqual([50, 255, 200, 0]);
  });

  it('palette 2-bit with tRNS shorter than the palette', () => {
    const plte = [255, 0, 0, 0, 255, 0, 0, 0, 255];
    const img = decodePng(makePng({ width: 3, height: 1, depth: 2, colorType: 3, plte, trns: [0, 128], rows: [[0, 0b00011000]] }));
    expect(img.channels).toBe(4);
    expect(bytes(img)).toEqual([255, 0, 0, 0, 0, 255, 0, 128, 0, 0, 255, 255]);
  });

  it('palette 8-bit without tRNS is RGB', () => {
    const img = decodePng(makePng({ width: 2, height: 1, depth: 8, colorType: 3, plte: [1, 2, 3, 4, 5, 6], rows: [[0, 1, 0]] }));
    expect(img.channels).toBe(3);
    expect(bytes(img)).toEqual([4, 5, 6, 1, 2, 3]);
  });

  it('grey 1-bit packs from the high bit and pads the last byte', () => {
    const img = decodePng(makePng({ width: 10, height: 1, depth: 1, colorType: 0, rows: [[0, 0b10101010, 0b11000000]] }));
    expect(bytes(img)).toEqual([255, 0, 255, 0, 255, 0, 255, 0, 255, 255]);
  });

  it('grey 4-bit with a tRNS colour key', () => {
    const img = decodePng(makePng({ width: 2, height: 1, depth: 4, colorType: 0, trns: [0, 15], rows: [[0, 0xf7]] }));
    expect(img.channels).toBe(2);
    expect(Array.from(img.data)).toEqual(Array.from(Float32Array.of(1, 0, 7 / 15, 1)));
  });

  it('RGB 16-bit with a tRNS colour key', () => {
    const key = [0, 1, 0, 2, 0, 3];
    const img = decodePng(makePng({ width: 2, height: 1, depth: 16, colorType: 2, trns: key, rows: [[0, ...key, 0, 1, 0, 2, 0, 4]] }));
    expect(img.channels).toBe(4);
    expect(img.data[3]).toBe(0);
    expect(img.data[7]).toBe(1);
    expect(img.data[6]).toBeCloseTo(4 / 65535, 9);
  });
});

describe('decodePng, errors', () => {
  const good = () => makePng({ width: 2, height: 2, depth: 8, colorType: 0, rows: [[0, 1, 2], [0, 3, 4]] });
  const fails = (buf: Uint8Array, pattern: RegExp) => {
    expect(() => decodePng(buf)).toThrow(PngError);
    expect(() => decodePng(buf)).toThrow(pattern);
  };

  it('rejects a bad signature', () => fails(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9), /not a PNG/));
  it('rejects a flipped byte via the CRC', () => {
    const buf = good();
    buf[40] ^= 0x10; // inside IDAT's data
    fails(buf, /CRC mismatch/);
  });
  it('rejects a file cut at any point', () => {
    const buf = good();
    for (const cut of [8, 20, 33, 45, buf.length - 1]) fails(buf.subarray(0, cut), /truncated/);
  });
  it('rejects image data shorter than the header needs', () => {
    fails(makePng({ width: 2, height: 2, depth: 8, colorType: 0, rows: [[0, 1, 2]] }), /image data truncated/);
  });
  it('rejects an unknown filter byte', () => {
    fails(makePng({ width: 1, height: 1, depth: 8, colorType: 0, rows: [[7, 1]] }), /unknown filter type 7/);
  });
  it('rejects interlaced images with a clear reason', () => {
    fails(makePng({ width: 1, height: 1, depth: 8, colorType: 0, rows: [[0, 1]], interlace: 1 }), /interlaced.*not supported/);
  });
  it('rejects illegal depth, missing palette and out-of-range indices', () => {
    fails(makePng({ width: 1, height: 1, depth: 4, colorType: 2, rows: [[0, 1]] }), /bit depth 4 is not allowed/);
    fails(makePng({ width: 1, height: 1, depth: 8, colorType: 3, rows: [[0, 0]] }), /no PLTE/);
    fails(makePng({ width: 1, height: 1, depth: 8, colorType: 3, plte: [0, 0, 0], rows: [[0, 3]] }), /palette index 3 out of range/);
  });
  it('rejects image data that is not zlib', () => {
    const buf = Uint8Array.from([...good().subarray(0, 33), ...chunk('IDAT', [1, 2, 3, 4]), ...chunk('IEND', [])]);
    fails(buf, /does not decompress/);
  });
});

describe('encodePng', () => {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);

  it.each([1, 3, 4] as const)('round-trips random and smooth 8-bit images with %i channels', (channels) => {
    const width = 17;
    const height = 9;
    const data = new Uint8Array(width * height * channels);
    for (let i = 0; i < data.length; i++) data[i] = i < data.length / 2 ? Math.floor(rand() * 256) : (i * 3) & 255;
    const back = decodePng(encodePng({ width, height, channels, data }));
    expect(back.channels).toBe(channels);
    expect(bytes(back)).toEqual(Array.from(data));
  });

  it('rounds float RGB images to 8 bits and clamps out-of-range values', () => {
    const data = Float32Array.from([0.5, -1, 2, 0.2, 0.4, 0.6]);
    const back = decodePng(encodePng({ width: 2, height: 1, data }));
    expect(bytes(back)).toEqual([128, 0, 255, 51, 102, 153]);
  });

  it('refuses data whose length does not match the size', () => {
    expect(() => encodePng({ width: 2, height: 2, data: new Float32Array(5) })).toThrow(PngError);
  });
});

describe('toRgb', () => {
  it('composites alpha over white and replicates grey', () => {
    const rgb = toRgb({ width: 2, height: 1, channels: 2, data: Float32Array.from([0.2, 1, 0, 0.5]) });
    expect(Array.from(rgb.data).map((v) => +v.toFixed(6))).toEqual([0.2, 0.2, 0.2, 0.5, 0.5, 0.5]);
  });

  it('equals compositing toRgba over the background bit for bit, for every channel count', () => {
    let seed = 3;
    const next = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const channels of [1, 2, 3, 4] as const) {
      const png = { width: 5, height: 3, channels, data: Float32Array.from({ length: 15 * channels }, next) };
      for (const background of [1, 0.25]) {
        const rgba = toRgba(png).data;
        const expected = new Float32Array(15 * 3);
        for (let i = 0; i < 15; i++) for (let k = 0; k < 3; k++) expected[i * 3 + k] = rgba[i * 4 + k] * rgba[i * 4 + 3] + background * (1 - rgba[i * 4 + 3]);
        expect(toRgb(png, background).data).toEqual(expected);
      }
    }
  });

  it('decodes 8-bit grey and RGB to the exact quotients v / 255 (their fast path)', () => {
    const row = (n: number, k: number): number[] => [0, ...Array.from({ length: n }, (_, i) => (i * 37 + k * 11) % 256)];
    const grey = decodePng(makePng({ width: 7, height: 2, depth: 8, colorType: 0, rows: [row(7, 0), row(7, 1)] }));
    expect(grey.data).toEqual(Float32Array.from([...row(7, 0).slice(1), ...row(7, 1).slice(1)], (v) => v / 255));
    const rgb = decodePng(makePng({ width: 4, height: 2, depth: 8, colorType: 2, rows: [row(12, 2), row(12, 3)] }));
    expect(rgb.data).toEqual(Float32Array.from([...row(12, 2).slice(1), ...row(12, 3).slice(1)], (v) => v / 255));
  });
});

const dataDir = testDataDir();
const lpipsDir = join(dataDir, 'lpips-alex');
const lego = join(dataDir, 'nerf-synthetic-lego-24', 'train', 'r_0.png');

describe.skipIf(skipWithout('lpips', existsSync(lpipsDir)))('real files: lpips-alex', () => {
  it('decodes every PNG as 64x64 RGB and re-encodes it losslessly', () => {
    const files = readdirSync(lpipsDir).filter((f) => f.endsWith('.png'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const img = readPng(join(lpipsDir, f));
      expect(img).toMatchObject({ width: 64, height: 64, channels: 3 });
      expect(new Set(bytes(img)).size).toBeGreaterThan(50);
      expect(bytes(decodePng(encodePng(img)))).toEqual(bytes(img));
    }
  });
});

describe.skipIf(skipWithout('lego', existsSync(lego)))('real files: NeRF lego r_0', () => {
  it('decodes the 800x800 RGBA photo with a transparent background', () => {
    const img = readPng(lego);
    expect(img).toMatchObject({ width: 800, height: 800, channels: 4 });
    expect(img.data[3]).toBe(0); // corner is background
    const centre = (400 * 800 + 400) * 4 + 3;
    expect(img.data[centre]).toBe(1);
    expect(toRgb(img).data[0]).toBe(1); // transparent corner over white
  });
});
