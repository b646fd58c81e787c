// The one render entry of search views: a pose's 512x512 image at 90 degrees horizontal FOV.
// Inputs: Splats and a Pose (and optionally another renderer). Output: RenderOutput over white.
// Invariant: every search image (observations, goal images, baselines, benches) goes through
// renderView, so a faster rasterizer (GPU sort, tiled CPU) replaces `renderer` in one place.
import { rasterizeForward } from '../raster/cpu/rasterize-forward';
import type { Camera, RenderOutput } from '../raster/types';
import type { Splats } from '../scene/splats';
import { poseCamera, type Pose } from './pose';

export type ViewRenderer = (splats: Splats, camera: Camera) => RenderOutput;

export const OBS_SIZE = 512;
export const OBS_HFOV = 90;

export function renderView(splats: Splats, pose: Pose, renderer: ViewRenderer = rasterizeForward, size = OBS_SIZE, hfov = OBS_HFOV): RenderOutput {
  return renderer(splats, poseCamera(pose, size, hfov));
}
