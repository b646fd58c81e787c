// The GPU grader renders through the rasterizer it is given (the lab context's, shared with the
// debugger and search views): its renders land in that rasterizer's resident scene (one full
// upload, then nothing for the same scene, a delta after an edit), and destroying the grader
// leaves the shared rasterizer working.
import { afterAll, describe, expect, it } from 'vitest';
import { gpuDevice } from '../../helpers/gpu';
import { loadShaderLibrary } from '../../helpers/shaders';
import { Grader } from '../../../src/main/grader/grader';
import { GpuRasterizer } from '../../../src/shared/raster/gpu';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { randomScene } from '../../shared/raster/gpu/scenes';
import { skipWithout } from '../../helpers/optional';

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('GPU grader on a shared rasterizer', () => {
  const shared = gpuDevice ? GpuRasterizer.create(gpuDevice, loadShaderLibrary()) : null;
  afterAll(() => shared?.destroy());

  it('uploads the scene once, deltas after an edit, and leaves the rasterizer to its owner', async () => {
    const raster = shared as GpuRasterizer;
    const grader = await Grader.create({ device: gpuDevice, preferCpu: false, lpipsDir: null, rasterizer: () => raster });
    expect(grader.kind).toBe('gpu');
    const cams = [orbitCamera({ azimuth: 10, elevation: 20, width: 32, height: 32 }), orbitCamera({ azimuth: 100, elevation: 5, width: 32, height: 32 })];
    const scene = randomScene(200, 4);
    const first = await grader.renderViews(scene, cams);
    await grader.renderViews(scene, cams);
    const edited = { ...scene, colors: scene.colors.slice() };
    edited.colors[0] = 0.1;
    await grader.renderViews(edited, cams);
    expect(raster.uploads).toMatchObject({ full: 1, unchanged: 1, delta: 1, deltaRows: 1 });
    grader.destroy();
    // Still resident after the grader is gone: back to the first scene is one more delta.
    const again = await raster.forwardBatch(scene, cams);
    expect(Array.from(again[0].rgb)).toEqual(Array.from(first[0].rgb));
    expect(raster.uploads).toMatchObject({ full: 1, delta: 2 });
  });
});
