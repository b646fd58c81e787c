// Small synthetic fitting problems for the fit tests: a known Gaussian scene rendered from the
// reference orbit views at a tiny size gives photos and masks (coverage) to fit.
import { REFERENCE_VIEWS, viewCameras } from '../../../../src/shared/camera/views';
import type { FitView } from '../../../../src/shared/authoring/fit/fit';
import type { GaussianRecord } from '../../../../src/shared/scene/gaussian';
import { packSplats } from '../../../../src/shared/scene/gaussian';
import { rasterizeForward } from '../../../../src/shared/raster/cpu';

export function gaussian(id: number, pos: [number, number, number], scale: number, color: [number, number, number], opacity = 0.9): GaussianRecord {
  return { id, pos, scale: [scale, scale * 0.7, scale * 1.3], quat: [0.9, 0.1, -0.2, 0.3].map((v) => v / Math.hypot(0.9, 0.1, 0.2, 0.3)) as GaussianRecord['quat'], color, opacity };
}

/** A small two-colour "object": a red body and a blue head. */
export const TARGET_SCENE: GaussianRecord[] = [
  gaussian(0, [0, 0, -0.3], 0.35, [0.85, 0.2, 0.15]),
  gaussian(1, [0.1, 0.05, 0.35], 0.22, [0.15, 0.3, 0.9]),
  gaussian(2, [-0.3, 0.2, -0.2], 0.18, [0.9, 0.8, 0.2]),
  gaussian(3, [0.3, -0.25, 0.0], 0.15, [0.2, 0.7, 0.3]),
];

export function syntheticViews(size: number, scene: readonly GaussianRecord[] = TARGET_SCENE): FitView[] {
  const splats = packSplats(scene, 'f64');
  return viewCameras(REFERENCE_VIEWS, size).map((camera) => {
    const r = rasterizeForward(splats, camera);
    return { camera, photo: { width: size, height: size, data: r.rgb }, mask: r.alpha };
  });
}
