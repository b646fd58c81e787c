// A lab parameters file in SpaRRTa's own layout (docs/RELATION.md, "SpaRRTa export"): what its
// released loader reads (camera.location, actors{<name>: {label, location}}), in its units
// (Unreal centimetres) and its handedness (Unreal's left-handed axes, which the loader undoes by
// negating X), plus a `splatlab` block the loader ignores. Input: RelationParams. Output: the
// SpaRRTa parameters object and where its folders go. Invariant: negating X of every exported
// location gives back the lab's right-handed ground coordinates times 100, so the loader's
// angle, and therefore its label, is the lab's.
import { environment, sparrtaLabel, tripleOf } from './environments';
import type { RelationClass } from './labels';
import type { RelationParams } from './params';

/** Unreal units per lab unit: centimetres per metre. */
export const SPARRTA_UNITS_PER_METRE = 100;
/** Quality of the exported JPEGs (jpeg-js, baseline, 4:2:0 chroma). */
export const SPARRTA_JPEG_QUALITY = 95;
/** SpaRRTa's label of the allocentric observer (its `human_label`). */
export const SPARRTA_HUMAN_LABEL = 'Human';
/** SpaRRTa's folder under each environment key (`<root>/<environment>/mid-objects`). */
export const SPARRTA_SUBFOLDER = 'mid-objects';

/** SpaRRTa's class names, as its loader's LABEL_TO_INDEX spells them. */
export const SPARRTA_CLASS: Readonly<Record<RelationClass, string>> = { front: 'Front', back: 'Back', left: 'Left', right: 'Right' };

export interface UnrealVector { x: number; y: number; z: number }
export interface UnrealRotator { pitch: number; yaw: number; roll: number }

export interface SparrtaParams {
  camera: {
    label: string;
    location: UnrealVector;
    rotation: UnrealRotator;
    intrinsics: { hfov_deg: number; vfov_deg: number; width: number; height: number };
  };
  actors: Record<string, { label: string; location: UnrealVector; rotation: UnrealRotator }>;
  splatlab: {
    id: string;
    environment: string;
    triple: string;
    task: string;
    observer: string;
    roles: string;
    reference: string;
    target: string;
    label: string;
    angle_deg: number;
    margin_deg: number;
    split: string;
    axes: string;
  };
}

/** Lab (right-handed, metres, Z up) to Unreal (left-handed, centimetres): X mirrored. */
export function toUnreal(p: readonly number[]): UnrealVector {
  const k = SPARRTA_UNITS_PER_METRE;
  // `+ 0` turns -0 into 0, so a point on an axis does not print as -0.
  return { x: -p[0] * k + 0, y: p[1] * k, z: p[2] * k };
}

/** A lab yaw (degrees from +X towards +Y) as Unreal's yaw after the X mirror, in (-180, 180]. */
export function toUnrealYaw(yaw: number): number {
  let y = 180 - yaw;
  y = ((y % 360) + 360) % 360;
  return y > 180 ? y - 360 : y;
}

/**
 * The folder key of a sample: SpaRRTa's environment key of its triple (`forest`, `forest_2`,
 * ...), under a root per perspective (`camera` for ego, `human` for allo).
 */
export function sparrtaFolder(p: Pick<RelationParams, 'environment' | 'triple' | 'task'>): { perspective: 'camera' | 'human'; environment: string } {
  const t = tripleOf(environment(p.environment), p.triple);
  return { perspective: p.task === 'ego' ? 'camera' : 'human', environment: t.sparrta.environment };
}

export function toSparrtaParams(p: RelationParams, split: string): SparrtaParams {
  const actors: SparrtaParams['actors'] = {};
  // Only the triple's objects and the person (observer or bystander): props never share a label with them in the
  // loader's label-to-location map (a scenery rock would replace the desert's reference rock).
  p.actors.forEach((a, i) => {
    const label = a.role === 'observer' || a.role === 'person' ? SPARRTA_HUMAN_LABEL : sparrtaLabel(a.label);
    actors[`StaticMeshActor_${i + 1}`] = { label, location: toUnreal(a.position), rotation: { pitch: 0, yaw: toUnrealYaw(a.yaw), roll: 0 } };
  });
  const ref = p.actors.find((a) => a.role === 'reference'), tgt = p.actors.find((a) => a.role === 'target');
  if (!ref || !tgt) throw new Error(`parameters ${p.id} lack a reference or a target`);
  const { rotation, intrinsics } = p.camera;
  return {
    camera: {
      label: 'RenderCamera', location: toUnreal(p.camera.position),
      // The mirror turns a yaw t into 180 - t and flips the sense of roll; pitch (up) is kept.
      rotation: { pitch: rotation.pitch, yaw: toUnrealYaw(rotation.yaw), roll: -rotation.roll + 0 },
      intrinsics: { hfov_deg: intrinsics.fov_deg, vfov_deg: intrinsics.fov_deg, width: intrinsics.width, height: intrinsics.height },
    },
    actors,
    splatlab: {
      id: p.id, environment: p.environment, triple: p.triple, task: p.task, observer: p.observer, roles: p.roles ?? 'sparrta',
      reference: sparrtaLabel(ref.label), target: sparrtaLabel(tgt.label),
      label: SPARRTA_CLASS[p.relation.label], angle_deg: p.relation.angle_deg, margin_deg: p.margin_deg, split,
      axes: 'Unreal: left-handed, centimetres, Z up; the lab\'s X negated (negate X again for the lab\'s metres x 100)',
    },
  };
}
