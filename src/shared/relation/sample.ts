// One relation sample end to end: a seeded layout, its 224x224 ray-cast image and the visible
// pixel counts of the full image; and the image re-rendered from a parameters file alone.
// Inputs: a LayoutRequest or a RelationParams. Outputs: params + RgbImage.
// Invariant: renderParams(sample.params) reproduces sample.image exactly (same scene, same rays).
import type { RgbImage } from '../image/image';
import { toCamera } from './camera';
import { environment } from './environments';
import { sampleLayout, type LayoutRequest } from './layout';
import type { RelationParams } from './params';
import { renderRelation, type RelationRender, type RelationRenderOptions } from './render';
import { buildScene } from './scene';

export interface RelationSample {
  params: RelationParams;
  image: RgbImage;
}

export function renderParams(params: RelationParams, opts: RelationRenderOptions = {}): RelationRender {
  const scene = buildScene(environment(params.environment), params.actors, params.props);
  return renderRelation(scene, toCamera(params.camera), opts);
}

export function generateSample(req: LayoutRequest, opts: RelationRenderOptions = {}): RelationSample {
  const params = sampleLayout(req);
  const out = renderParams(params, opts);
  const visible: Record<string, number> = {};
  for (const a of params.actors) visible[a.role] = out.visible[a.role] ?? 0;
  return { params: { ...params, visible_pixels: visible }, image: out.rgb };
}
