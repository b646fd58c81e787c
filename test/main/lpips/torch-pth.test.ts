// torch checkpoint reader on fixtures made by test/fixtures/metrics/pth/make_pth_fixtures.py:
// zip (stored and deflated) and legacy formats, strided and offset views, corruption.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTorchStateDict } from '../../../src/main/lpips/torch-pth';

const DIR = join(__dirname, '..', '..', 'fixtures', 'metrics', 'pth');
const expected = JSON.parse(readFileSync(join(DIR, 'tiny-expected.json'), 'utf8')) as Record<string, { shape: number[]; values: number[] }>;

describe('readTorchStateDict', () => {
  it.each(['tiny-zip.pth', 'tiny-deflate.pth', 'tiny-legacy.pth'])('reads %s', (file) => {
    const dict = readTorchStateDict(readFileSync(join(DIR, file)));
    expect(Object.keys(dict)).toEqual(Object.keys(expected));
    for (const [name, t] of Object.entries(expected)) {
      expect(dict[name].shape).toEqual(t.shape);
      expect(Array.from(dict[name].data)).toEqual(t.values);
    }
  });

  it('resolves strides: the transposed view differs from the contiguous one', () => {
    const dict = readTorchStateDict(readFileSync(join(DIR, 'tiny-zip.pth')));
    expect(Array.from(dict['conv.weight_t'].data)).toEqual([-3, -1.5, -2.5, -1, -2, -0.5]);
  });

  it('detects a corrupted storage through the zip CRC', () => {
    const buf = Uint8Array.from(readFileSync(join(DIR, 'tiny-zip.pth')));
    const at = Buffer.from(buf).indexOf('tiny-zip/data/0') + 'tiny-zip/data/0'.length + 70; // inside the storage bytes
    buf[at] ^= 0xff;
    expect(() => readTorchStateDict(buf)).toThrow(/CRC|corrupt/);
  });

  it('rejects truncated and foreign files with a clear message', () => {
    const zip = readFileSync(join(DIR, 'tiny-zip.pth'));
    expect(() => readTorchStateDict(zip.subarray(0, zip.length - 30))).toThrow(/zip: .*truncated or not a zip/);
    const legacy = readFileSync(join(DIR, 'tiny-legacy.pth'));
    expect(() => readTorchStateDict(legacy.subarray(0, legacy.length - 10))).toThrow(/truncated/);
    expect(() => readTorchStateDict(Uint8Array.from([0x80, 0x02, 0x4b, 0x05, 0x2e]))).toThrow(/bad magic/);
  });
});
