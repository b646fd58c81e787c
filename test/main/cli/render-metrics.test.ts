// `splatlab render` and `splatlab metrics`: results, and one clear error line for bad input.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPng, readPngRgb } from '../../../src/main/io/png';
import { testDataDir } from '../../helpers/data';
import { runCli } from './run';
import { gpuDevice } from '../../helpers/gpu';
import { cameraFromFile } from '../../../src/shared/camera/spec';
import { mulberry32 } from '../../../src/shared/math/random';
import { rasterizeForward } from '../../../src/shared/raster/cpu';
import { packSplats } from '../../../src/shared/scene/gaussian';
import { parseSceneDocument } from '../../../src/shared/scene/input';
import { TASK_POLICY } from '../../../src/shared/scene/policy';
import { skipWithout } from '../../helpers/optional';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-cli-'));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const scene = file('scene.json', { gaussians: [{ pos: [0, 0, 0], scale: 0.15, color: '#ff0000' }, { p: [0, 0.9, 0], s: [0.1, 0.1, 0.1], q: [1, 0, 0, 0], c: [0, 0, 1], o: 0.8 }] });
const camera = file('camera.json', { azimuth: 0, elevation: 0, width: 64, height: 64 });

describe('splatlab render', () => {
  it('renders a scene and its coverage to PNG on the CPU reference', async () => {
    const out = join(dir, 'out.png');
    const cov = join(dir, 'cov.png');
    const run = await runCli('render', ['--scene', scene, '--camera', camera, '--out', out, '--coverage', cov, '--device', 'cpu']);
    expect(run.code).toBe(0);
    const png = readPng(out);
    expect([png.width, png.height]).toEqual([64, 64]);
    const centre = (32 * 64 + 32) * png.channels;
    expect(png.data[centre]).toBeGreaterThan(0.9); // red sphere in the middle
    expect(png.data[centre + 1]).toBeLessThan(0.1);
    expect(readPng(cov).data[32 * 64 + 32]).toBeGreaterThan(0.9);
    expect(readPng(cov).data[0]).toBe(0);
  });

  it('renders a scene above 4096 Gaussians with the tile rasterizer on worker threads: the CPU reference image', async () => {
    const rng = mulberry32(12);
    const gaussians = Array.from({ length: 5000 }, () => ({
      pos: [rng.uniform(-0.9, 0.9), rng.uniform(-0.9, 0.9), rng.uniform(-0.9, 0.9)], scale: rng.uniform(0.02, 0.06),
      color: [rng.next(), rng.next(), rng.next()], opacity: rng.uniform(0.3, 1),
    }));
    const path = file('many.json', { gaussians });
    const out = join(dir, 'many.png');
    const run = await runCli('render', ['--scene', path, '--camera', camera, '--out', out, '--device', 'cpu']);
    expect(run.code).toBe(0);
    expect(run.out.join('\n')).toMatch(/Rendered 5000 Gaussians at 64x64 on the CPU tile rasterizer \(\d+ worker threads?; the CPU reference's image\)/);
    const parsed = parseSceneDocument({ gaussians }, TASK_POLICY);
    const cam = cameraFromFile({ azimuth: 0, elevation: 0, width: 64, height: 64 });
    if (!parsed.ok || !cam.ok) throw new Error('test scene or camera did not parse');
    const ref = rasterizeForward(packSplats(parsed.records), cam.camera);
    const png = readPngRgb(out).data;
    expect(png.length).toBe(ref.rgb.length);
    let worst = 0;
    for (let i = 0; i < png.length; i++) worst = Math.max(worst, Math.abs(png[i] - Math.min(1, Math.max(0, ref.rgb[i]))));
    expect(worst).toBeLessThanOrEqual(0.5 / 255 + 1e-6);
  });

  it.skipIf(skipWithout('gpu', gpuDevice !== null))('--device gpu renders on whatever adapter exists (SwiftShader here) and names it', async () => {
    const cpuOut = join(dir, 'cpu-ref.png');
    const gpuOut = join(dir, 'gpu.png');
    await runCli('render', ['--scene', scene, '--camera', camera, '--out', cpuOut, '--device', 'cpu']);
    const run = await runCli('render', ['--scene', scene, '--camera', camera, '--out', gpuOut, '--device', 'gpu']);
    expect(run.code).toBe(0);
    expect(run.out.join('\n')).toMatch(/on the GPU rasterizer, (SwiftShader|hardware adapter)/);
    const a = readPng(cpuOut).data;
    const b = readPng(gpuOut).data;
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThanOrEqual(2 / 255);
  });

  const bad: [string, unknown, RegExp][] = [
    ['NaN', '{"gaussians":[{"pos":[NaN,0,0],"color":"#fff"}]}', /not valid JSON/],
    ['a position outside the bounds', { gaussians: [{ pos: [3, 0, 0], scale: 2, opacity: 0.001, color: '#ffffff' }] }, /#0: position \[3, 0, 0\] is outside the bounds/],
    ['a zero quaternion', { gaussians: [{ pos: [0, 0, 0], rot: [0, 0, 0, 0], color: '#ffffff' }] }, /#0: quaternion .* zero length/],
    ['bad colour', { gaussians: [{ pos: [0, 0, 0], color: '#cacc cb' }] }, /unknown color/],
  ];
  it.each(bad)('rejects a scene with %s in one line', async (_name, content, message) => {
    const run = await runCli('render', ['--scene', file('bad.json', content), '--camera', camera, '--out', join(dir, 'x.png'), '--device', 'cpu']);
    expect(run.code).toBe(1);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(message);
  });

  it('clamps as the environment does, with its warnings, and renders a capture as it is with --beyond-bounds', async () => {
    const clamped = await runCli('render', ['--scene', file('clamp.json', { gaussians: [{ pos: [0, 0, 0], scale: -0.1, opacity: 0.001, color: '#ffffff' }] }), '--camera', camera, '--out', join(dir, 'c.png'), '--device', 'cpu']);
    expect(clamped.code).toBe(0);
    expect(clamped.err).toEqual(['warning: #0: scale -0.1 clamped to [0.005, 0.005, 0.005]', 'warning: #0: opacity 0.001 raised to 0.05']);
    const probe = file('probe.json', { gaussians: [{ pos: [3, 0, 0], scale: 2, opacity: 0.001, color: '#ffffff' }] });
    const free = await runCli('render', ['--scene', probe, '--camera', camera, '--out', join(dir, 'p.png'), '--device', 'cpu', '--beyond-bounds']);
    expect(free.code).toBe(0);
  });

  it('rejects a camera with the object behind it, and a malformed camera', async () => {
    // Orbit camera at +X looking at the origin; the scene sits far behind it at x = +10.
    const behind = file('behind.json', { gaussians: [{ pos: [10, 0, 0], color: '#000000' }] });
    const run = await runCli('render', ['--scene', behind, '--camera', camera, '--out', join(dir, 'x.png'), '--device', 'cpu', '--beyond-bounds']);
    expect(run.err[0]).toMatch(/behind the camera/);
    const skew = file('skew.json', { width: 8, height: 8, fx: 8, fy: 8, cx: 4, cy: 4, world_to_camera: [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 5, 0, 0, 0, 1] });
    expect((await runCli('render', ['--scene', scene, '--camera', skew, '--out', join(dir, 'x.png')])).err[0]).toMatch(/not a rigid transform/);
  });
});

describe('splatlab metrics', () => {
  const lpipsDir = join(testDataDir(), 'lpips-alex');
  const haveWeights = existsSync(join(lpipsDir, 'manifest.json'));

  it('compares two renders', async () => {
    const a = join(dir, 'a.png');
    const b = join(dir, 'b.png');
    await runCli('render', ['--scene', scene, '--camera', camera, '--out', a, '--device', 'cpu']);
    await runCli('render', ['--scene', scene, '--camera', file('cam2.json', { azimuth: 90, elevation: 0, width: 64, height: 64 }), '--out', b, '--device', 'cpu']);
    const same = await runCli('metrics', [a, a, '--json', '--no-lpips']);
    expect(JSON.parse(same.out[0])).toEqual({ psnr: 'inf', ssim: 1, lpips: null, iou: 1 });
    const diff = await runCli('metrics', [a, b, '--json', '--no-lpips']);
    const m = JSON.parse(diff.out[0]) as { psnr: number; ssim: number; iou: number };
    expect(m.psnr).toBeGreaterThan(10);
    expect(m.ssim).toBeLessThan(1);
    expect(m.iou).toBeLessThan(1);
  });

  it('rejects images of different sizes and corrupt PNGs in one line', async () => {
    const a = join(dir, 'a.png');
    const small = join(dir, 'small.png');
    await runCli('render', ['--scene', scene, '--camera', file('cam3.json', { azimuth: 0, elevation: 0, width: 32, height: 32 }), '--out', small, '--device', 'cpu']);
    expect((await runCli('metrics', [a, small, '--no-lpips'])).err[0]).toMatch(/image sizes differ/);
    const corrupt = file('corrupt.png', 'not a png at all');
    const run = await runCli('metrics', [a, corrupt, '--no-lpips']);
    expect(run.code).toBe(1);
    expect(run.err[0]).toMatch(/corrupt\.png/);
  });

  it('needs LPIPS weights unless told not to', async () => {
    const a = join(dir, 'a.png');
    expect((await runCli('metrics', [a, a, '--lpips-dir', join(dir, 'nowhere')])).err[0]).toMatch(/--no-lpips/);
  });

  it.skipIf(skipWithout('lpips', haveWeights))('checks the LPIPS weights against their manifest sha256', async () => {
    const a = join(dir, 'a.png');
    const copy = join(dir, 'lpips-copy');
    mkdirSync(copy);
    for (const f of readdirSync(lpipsDir)) copyFileSync(join(lpipsDir, f), join(copy, f));
    writeFileSync(join(copy, 'lin0.f32'), new Uint8Array(64 * 4));
    const run = await runCli('metrics', [a, a, '--lpips-dir', copy]);
    expect(run.code).toBe(1);
    expect(run.err[0]).toMatch(/sha256|lin0/);
  });

  it.skipIf(skipWithout('lpips', haveWeights))('computes LPIPS with the shared weights', async () => {
    const run = await runCli('metrics', [join(lpipsDir, 'ex_ref.png'), join(lpipsDir, 'ex_p0.png'), '--json']);
    expect(JSON.parse(run.out[0]).lpips).toBeGreaterThan(0);
  });
});
