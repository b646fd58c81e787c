// loadLpipsWeights: folder resolution and the one-line errors for a missing folder, missing
// file, sha256 mismatch and wrong size. The folder is converted from the fake checkpoints.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertCheckpoints } from '../../../src/main/lpips/convert';
import { BUNDLED_MANIFEST_SHA256, LpipsWeightsError, bundledLpipsDir, loadLpipsWeights, resolveLpipsDir, sha256 } from '../../../src/main/lpips/weights';

const FIX = join(__dirname, '..', '..', 'fixtures', 'metrics', 'pth');
const root = mkdtempSync(join(tmpdir(), 'lpips-weights-'));
const good = join(root, 'good');
let n = 0;
function copy(): string {
  const dir = join(root, `case${n++}`);
  cpSync(good, dir, { recursive: true });
  return dir;
}
const fails = (dir: string, pattern: RegExp) => {
  expect(() => loadLpipsWeights({ dir })).toThrow(LpipsWeightsError);
  expect(() => loadLpipsWeights({ dir })).toThrow(pattern);
};

beforeAll(() => convertCheckpoints(readFileSync(join(FIX, 'fake-alexnet.pth')), readFileSync(join(FIX, 'fake-lpips.pth')), good));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('loadLpipsWeights', () => {
  it('loads a good folder into typed arrays of the right sizes', () => {
    const w = loadLpipsWeights({ dir: good });
    expect(w.conv.map((c) => c.weight.length)).toEqual([64 * 3 * 121, 192 * 64 * 25, 384 * 192 * 9, 256 * 384 * 9, 256 * 256 * 9]);
    expect(w.lin.map((l) => l.length)).toEqual([64, 192, 384, 256, 256]);
  });

  it('resolves the folder: option, then SPLATLAB_LPIPS_DIR', () => {
    expect(resolveLpipsDir('x/y', { SPLATLAB_LPIPS_DIR: '/env' })).toBe(resolve('x/y'));
    expect(resolveLpipsDir(undefined, { SPLATLAB_LPIPS_DIR: '/env' })).toBe('/env');
    expect(loadLpipsWeights({ env: { SPLATLAB_LPIPS_DIR: good } }).conv).toHaveLength(5);
  });

  it('falls back to the copy shipped in the project, pinned by its manifest hash', () => {
    expect(resolveLpipsDir(undefined, {})).toBe(bundledLpipsDir());
    expect(sha256(readFileSync(join(bundledLpipsDir(), 'manifest.json')))).toBe(BUNDLED_MANIFEST_SHA256);
    expect(loadLpipsWeights({ env: {} }).conv).toHaveLength(5);
    expect(resolveLpipsDir(undefined, {}, join(root, 'no-project'))).toBeNull();
  });

  it('refuses an edited shipped manifest', () => {
    const project = join(root, 'project');
    cpSync(bundledLpipsDir(), bundledLpipsDir(project), { recursive: true });
    const file = join(bundledLpipsDir(project), 'manifest.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"float32-le"', '"float32-le" '));
    expect(() => loadLpipsWeights({ env: {}, root: project })).toThrow(/fails its pinned sha256 check/);
  });

  it('reports a missing folder with the fetch command', () => fails(join(root, 'nope'), /does not exist.*splatlab lpips fetch/));

  it('reports a missing manifest and a missing file', () => {
    const a = copy();
    rmSync(join(a, 'manifest.json'));
    fails(a, /manifest\.json is missing/);
    const b = copy();
    rmSync(join(b, 'lin3.f32'));
    fails(b, /lin3\.f32 \(lin3\) is missing/);
  });

  it('reports a sha256 mismatch', () => {
    const dir = copy();
    const file = join(dir, 'features_6_bias.f32');
    const bytes = readFileSync(file);
    bytes[0] ^= 1;
    writeFileSync(file, bytes);
    fails(dir, /features_6_bias\.f32 fails its sha256 check/);
  });

  it('reports a wrong size before hashing', () => {
    const dir = copy();
    const file = join(dir, 'features_0_weight.f32');
    writeFileSync(file, readFileSync(file).subarray(0, 100));
    fails(dir, /has 100 bytes, expected 92928/);
  });

  it('reports a manifest shape that disagrees with the network', () => {
    const dir = copy();
    const path = join(dir, 'manifest.json');
    const m = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { shape: number[] }>;
    m['features.0.bias'].shape = [8, 8];
    writeFileSync(path, JSON.stringify(m));
    fails(dir, /features\.0\.bias has shape \[8, 8\].*expected \[64\]/);
  });
});
