// One relation sample end to end: a seeded layout, its 224x224 ray-cast image and the visible
// pixel counts of the full image; and the image re-rendered from a parameters file alone.
// Inputs: a LayoutRequest or a RelationParams, the renderer (exact ray caster, or the actors as
// splats over the ray-cast environment). Outputs: params + RgbImage.
// Invariant: renderParams(sample.params) reproduces sample.image exactly (same scene, same rays).
import type { RgbImage } from '../../image/image';
import { toCamera } from './camera';
import { environment } from './environments';
import { sampleLayout, type LayoutRequest } from './layout';
import type { RelationParams } from './params';
import { renderRelation, visibleCounts, type RelationRender, type RelationRenderOptions } from './render';
import { actorSplats, renderSplatsOver } from './splats';
import { buildScene } from './scene';

export interface RelationSample {
  params: RelationParams;
  image: RgbImage;
}

export type RelationRenderer = 'raycast' | 'splats';

export function renderParams(params: RelationParams, opts: RelationRenderOptions & { renderer?: RelationRenderer } = {}): RelationRender {
  const env = environment(params.environment);
  const scene = buildScene(env, params.actors, params.props);
  const camera = toCamera(params.camera);
  if (opts.renderer !== 'splats') return renderRelation(scene, camera, opts);
  // Splats: the actors as Gaussians over the exact environment; visibility still by ray casting.
  const background = renderRelation(buildScene(env, [], params.props), camera, opts).rgb;
  return { rgb: renderSplatsOver(background, actorSplats(scene), camera), visible: visibleCounts(scene, camera) };
}

export function generateSample(req: LayoutRequest, opts: RelationRenderOptions & { renderer?: RelationRenderer } = {}): RelationSample {
  const params = sampleLayout(req);
  const out = renderParams(params, opts);
  const visible: Record<string, number> = {};
  for (const a of params.actors) visible[a.role] = out.visible[a.role] ?? 0;
  return { params: { ...params, visible_pixels: visible }, image: out.rgb };
}
