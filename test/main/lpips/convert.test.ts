// Conversion of (fake, full-shape) torchvision AlexNet and LPIPS v0.1 checkpoints into the
// weights folder, read back through loadLpipsWeights.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConvertError, convertCheckpoints, lpipsTensorsFromCheckpoints } from '../../../src/main/lpips/convert';
import { readTorchStateDict } from '../../../src/main/lpips/torch-pth';
import { loadLpipsWeights } from '../../../src/main/lpips/weights';

const DIR = join(__dirname, '..', '..', 'fixtures', 'metrics', 'pth');
const alexnet = readFileSync(join(DIR, 'fake-alexnet.pth'));
const lpips = readFileSync(join(DIR, 'fake-lpips.pth'));
const out = mkdtempSync(join(tmpdir(), 'lpips-convert-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('convertCheckpoints', () => {
  it('writes a folder that loads, with the values of the checkpoints', () => {
    convertCheckpoints(alexnet, lpips, out);
    const w = loadLpipsWeights({ dir: out });
    expect(Array.from(w.conv[0].weight.subarray(0, 6))).toEqual([1, 2, 3, 4, 5, Math.fround(0.001)]);
    expect(w.conv[4].weight[4]).toBe(9);
    expect(w.conv[4].weight[100]).toBe(Math.fround(0.005));
    expect(w.conv[1].bias[0]).toBe(-1);
    expect(w.conv[1].bias[191]).toBe(1);
    expect(w.lin[2][0]).toBe(2);
    expect(w.lin[2][383]).toBe(Math.fround(2 + 383 / 384));
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Record<string, { shape: number[] }>;
    expect(manifest['features.3.weight'].shape).toEqual([192, 64, 5, 5]);
    expect(manifest.lin4.shape).toEqual([256]);
  });

  it('names the missing tensor when a checkpoint is the wrong one', () => {
    expect(() => lpipsTensorsFromCheckpoints(readTorchStateDict(lpips), readTorchStateDict(lpips))).toThrow(ConvertError);
    expect(() => lpipsTensorsFromCheckpoints(readTorchStateDict(alexnet), readTorchStateDict(alexnet))).toThrow(/no lin0.model.1.weight/);
  });
});
