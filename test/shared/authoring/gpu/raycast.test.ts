// Parity of the WGSL ray caster with the CPU reference on all six objects and a random scene.
// float32 (GPU) and float64 (CPU) may disagree on a supersample that grazes a silhouette or an
// intersection curve: such a flip moves its pixel by up to 1/s^2 per flipped sample, so a tiny
// fraction of pixels (< 0.1 %) may differ by more than 2e-3, but never by more than a few
// flipped samples' worth. Everything else must agree to 2e-3 per channel.
import { describe, expect, it } from 'vitest';
import { gpuDevice } from '../../../helpers/gpu';
import { loadShaderLibrary } from '../../../helpers/shaders';
import { raycastObjectGpu, raycastViewsGpu } from '../../../../src/shared/authoring/gpu/raycast';
import { PROCEDURAL_OBJECTS } from '../../../../src/shared/authoring/objects/index';
import { randomScene } from '../../../../src/shared/authoring/random';
import { raycastObject, type RaycastOutput } from '../../../../src/shared/authoring/raycast';
import { orbitCamera } from '../../../../src/shared/camera/orbit';
import type { ProceduralObject } from '../../../../src/shared/authoring/primitives';
import { skipWithout } from '../../../helpers/optional';

const SIZE = 64;
// 2x2 supersamples keep the SwiftShader run short; the 1- and 3-sample case below covers the loop.
const SAMPLES = 2;
const TOL = 2e-3;
const FLIP_FRACTION = 1e-3;
const MAX_FLIPS_PER_PIXEL = 2;

// Closer than the standard 4.5 so the objects cover more of the small test images.
const CAMERAS = [[0, 20], [137, 35], [250, 70]].map(([azimuth, elevation]) =>
  orbitCamera({ azimuth, elevation, distance: 3.2, width: SIZE, height: SIZE }));

function compare(gpu: RaycastOutput, cpu: RaycastOutput): { outliers: number; worst: number; coverage: number } {
  const n = SIZE * SIZE;
  let outliers = 0;
  let worst = 0;
  let coverage = 0;
  for (let i = 0; i < n; i++) {
    let d = Math.abs(gpu.mask[i] - cpu.mask[i]);
    for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(gpu.rgb.data[3 * i + c] - cpu.rgb.data[3 * i + c]));
    if (d > TOL) outliers++;
    worst = Math.max(worst, d);
    coverage += cpu.mask[i];
  }
  return { outliers, worst, coverage: coverage / n };
}

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('raycastObjectGpu matches raycastObject', () => {
  const device = gpuDevice as GPUDevice;
  const library = loadShaderLibrary();
  const objects: [string, ProceduralObject][] = [
    ...Object.entries(PROCEDURAL_OBJECTS),
    ['random scene 7', randomScene(7, { minParts: 8, maxParts: 14 })],
  ];

  it.each(objects)('%s from three views', async (_name, obj) => {
    const gpu = await raycastViewsGpu(device, library, obj, CAMERAS, { samples: SAMPLES });
    CAMERAS.forEach((cam, v) => {
      const cpu = raycastObject(obj, cam, { samples: SAMPLES });
      const { outliers, worst, coverage } = compare(gpu[v], cpu);
      expect(coverage).toBeGreaterThan(0.05); // the comparison is about something
      expect(outliers).toBeLessThanOrEqual(Math.floor(FLIP_FRACTION * SIZE * SIZE));
      expect(worst).toBeLessThanOrEqual(MAX_FLIPS_PER_PIXEL / (SAMPLES * SAMPLES) + TOL);
    });
  });

  it('renders one view with other sample counts and a non-square camera', async () => {
    const cam = { ...orbitCamera({ azimuth: 75, elevation: 25, distance: 3.5, width: 48, height: 32 }), cx: 23.5, cy: 17 };
    for (const samples of [1, 3]) {
      const gpu = await raycastObjectGpu(device, library, PROCEDURAL_OBJECTS.robot, cam, { samples });
      const cpu = raycastObject(PROCEDURAL_OBJECTS.robot, cam, { samples });
      expect(gpu.rgb.width).toBe(48);
      expect(gpu.rgb.height).toBe(32);
      let outliers = 0;
      for (let i = 0; i < cpu.mask.length; i++) {
        if (Math.abs(gpu.mask[i] - cpu.mask[i]) > TOL) outliers++;
        for (let c = 0; c < 3; c++) if (Math.abs(gpu.rgb.data[3 * i + c] - cpu.rgb.data[3 * i + c]) > TOL) outliers++;
      }
      expect(outliers).toBeLessThanOrEqual(2);
    }
  });
});
