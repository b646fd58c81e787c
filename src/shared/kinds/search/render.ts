// The one render entry of search views: a pose's 512x512 image at 90 degrees horizontal FOV.
// Inputs: Splats and a Pose (and optionally another renderer). Output: RenderOutput over white.
// Invariant: every search image (observations, goal images, baselines, benches) goes through
// renderView or renderViewAsync, whose default is the tile-binned CPU rasterizer on the calling
// thread (rasterizeTiles: the dense reference's image, parity tested); the lab renders the same
// image on its worker pool (src/main/raster/tile-pool.ts, bit for bit) or on a hardware GPU.
import { rasterizeTiles } from '../../raster/cpu/tiles';
import type { AsyncViewRenderer, Camera, RenderOutput } from '../../raster/types';
import type { Splats } from '../../scene/splats';
import { poseCamera, type Pose } from './pose';

export type ViewRenderer = (splats: Splats, camera: Camera) => RenderOutput;
export type { AsyncViewRenderer };

/** The tile-binned CPU rasterizer on the calling thread: the dense reference's image (parity at
 * 1e-5, test/shared/raster/cpu/tiles.test.ts) at a fraction of its cost on room-sized scenes. */
const tiled: ViewRenderer = (splats, camera) => rasterizeTiles(splats, camera);

export const OBS_SIZE = 512;
export const OBS_HFOV = 90;

export function renderView(splats: Splats, pose: Pose, renderer: ViewRenderer = tiled, size = OBS_SIZE, hfov = OBS_HFOV): RenderOutput {
  return renderer(splats, poseCamera(pose, size, hfov));
}

export async function renderViewAsync(splats: Splats, pose: Pose, renderer: AsyncViewRenderer = tiled, size = OBS_SIZE, hfov = OBS_HFOV): Promise<RenderOutput> {
  return renderer(splats, poseCamera(pose, size, hfov));
}
