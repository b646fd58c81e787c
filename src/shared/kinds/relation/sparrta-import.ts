// One parameters file of SpaRRTa's released layout read as SpaRRTa's loader reads it
// (docs/RELATION.md, "SpaRRTa import"): the actors' label -> location map, the triple's
// reference and target labels named by SpaRRTa's configuration for the folder's environment
// key, X negated (Unreal's left-handed axes back to right-handed), centimetres to metres, the
// observer the camera (`camera/`) or the actor labelled `Human` (`human/`), and the label
// recomputed with SpaRRTa's rule and margin. Inputs: the parsed JSON, the folder key and
// perspective, the image size. Output: a lab parameters record, or why the loader would skip the
// sample. Invariant: the label comes from the positions alone; a label stored in the file (the
// lab's own `splatlab` block) is only compared with it, never used.
import { z } from 'zod';
import { lookAtCamera } from './camera';
import { ENVIRONMENT_IDS, ENVIRONMENTS, type EnvironmentId, type TripleSpec } from './environments';
import { facingRelationOf, MARGIN_DEG, relationOf, type RelationClass, type RelationTask } from './labels';
import { OBSERVER_MODEL } from './layout';
import { PARAMS_FORMAT, type Actor, type RelationParams } from './params';
import { SPARRTA_CLASS, SPARRTA_HUMAN_LABEL, SPARRTA_UNITS_PER_METRE } from './sparrta';

const num = z.number().refine(Number.isFinite, 'must be a finite number');
const Loc = z.object({ x: num, y: num, z: num });
const Rot = z.object({ pitch: num, yaw: num, roll: num });

/** The fields SpaRRTa's loader reads, plus what the lab's export adds; anything else is ignored. */
export const SparrtaParamsFileSchema = z.object({
  camera: z.object({
    location: Loc,
    rotation: Rot.optional(),
    intrinsics: z.object({ hfov_deg: num.optional(), vfov_deg: num.optional() }).passthrough().optional(),
  }).passthrough(),
  actors: z.record(z.string(), z.object({ label: z.string(), location: Loc, rotation: Rot.optional() }).passthrough()),
  splatlab: z.object({ label: z.string().optional(), id: z.string().optional() }).passthrough().optional(),
}).passthrough();

/** SpaRRTa's environment key (`forest`, `forest_2`, ...) -> the lab's environment and triple. */
export function tripleOfKey(key: string): { environment: EnvironmentId; triple: TripleSpec } | null {
  for (const id of ENVIRONMENT_IDS) {
    const triple = ENVIRONMENTS[id].triples.find((t) => t.sparrta.environment === key);
    if (triple) return { environment: id, triple };
  }
  return null;
}

export const SPARRTA_KEYS: readonly string[] = ENVIRONMENT_IDS.flatMap((id) => ENVIRONMENTS[id].triples.map((t) => t.sparrta.environment));

export interface ImportRequest {
  json: unknown;
  key: string;
  perspective: 'camera' | 'human';
  id: string;
  /** Where the image came from, relative to the imported folder. */
  source: string;
  width: number;
  height: number;
}

export type ImportOutcome =
  | { kind: 'sample'; params: RelationParams; stored: RelationClass | null }
  | { kind: 'skipped'; why: 'ambiguous' | 'missing actor' | 'unreadable'; detail: string };

const CLASS_OF: Readonly<Record<string, RelationClass>> = Object.fromEntries(Object.entries(SPARRTA_CLASS).map(([k, v]) => [v, k as RelationClass]));

/** An Unreal location (centimetres, left-handed) as lab metres (right-handed): X negated. */
export function fromUnreal(l: { x: number; y: number; z: number }): [number, number, number] {
  const k = SPARRTA_UNITS_PER_METRE;
  return [-l.x / k + 0, l.y / k, l.z / k];
}

/** An Unreal yaw after the X mirror back to the lab's (degrees from +X towards +Y). */
const fromUnrealYaw = (yaw: number) => 180 - yaw;

export function importSparrtaSample(r: ImportRequest): ImportOutcome {
  const parsed = SparrtaParamsFileSchema.safeParse(r.json);
  if (!parsed.success) {
    const iss = parsed.error.issues[0];
    return { kind: 'skipped', why: 'unreadable', detail: `${iss.path.join('.') || 'top level'}: ${iss.message}` };
  }
  const meta = parsed.data;
  const where = tripleOfKey(r.key);
  if (!where) throw new Error(`unknown SpaRRTa environment key '${r.key}' (known: ${SPARRTA_KEYS.join(', ')})`);
  const { environment, triple } = where;
  // The loader's map: the last actor of a label wins, as a Python dict comprehension keeps it.
  const byLabel = new Map<string, { location: z.infer<typeof Loc>; yaw: number }>();
  for (const a of Object.values(meta.actors)) byLabel.set(a.label, { location: a.location, yaw: a.rotation?.yaw ?? 0 });
  const ref = byLabel.get(triple.sparrta.reference), tgt = byLabel.get(triple.sparrta.target), human = byLabel.get(SPARRTA_HUMAN_LABEL);
  const task: RelationTask = r.perspective === 'camera' ? 'ego' : 'allo';
  if (!ref || !tgt) return { kind: 'skipped', why: 'missing actor', detail: `no ${!ref ? triple.sparrta.reference : triple.sparrta.target} actor` };
  if (task === 'allo' && !human) return { kind: 'skipped', why: 'missing actor', detail: `no ${SPARRTA_HUMAN_LABEL} actor` };
  const margin = MARGIN_DEG[task];
  const eye = fromUnreal(meta.camera.location);
  const refP = fromUnreal(ref.location), tgtP = fromUnreal(tgt.location);
  const observer = task === 'ego' ? eye : fromUnreal(human!.location);
  let rel: ReturnType<typeof relationOf>;
  try {
    rel = relationOf({ observer, reference: refP, target: tgtP }, margin);
  } catch (error) {
    return { kind: 'skipped', why: 'ambiguous', detail: (error as Error).message };
  }
  if (rel.label === 'ambiguous') return { kind: 'skipped', why: 'ambiguous', detail: `angle ${rel.angle.toFixed(2)} deg within ${margin} deg of a diagonal` };
  const actors: Actor[] = [
    { role: 'reference', label: triple.reference, position: refP, yaw: fromUnrealYaw(ref.yaw) },
    { role: 'target', label: triple.target, position: tgtP, yaw: fromUnrealYaw(tgt.yaw) },
  ];
  if (human) actors.push({ role: task === 'allo' ? 'observer' : 'person', label: OBSERVER_MODEL, position: fromUnreal(human.location), yaw: fromUnrealYaw(human.yaw) });
  const facing = task === 'allo' ? facingRelationOf({ reference: refP, target: tgtP }, fromUnrealYaw(human!.yaw), margin) : null;
  const stored = meta.splatlab?.label;
  return {
    kind: 'sample',
    stored: stored === undefined ? null : (CLASS_OF[stored] ?? null),
    params: {
      format: PARAMS_FORMAT, id: r.id, environment, triple: triple.id, task, seed: 0,
      observer: task === 'ego' ? 'camera' : 'human', margin_deg: margin, roles: 'sparrta',
      camera: cameraOf(eye, meta.camera.rotation, meta.camera.intrinsics?.hfov_deg, r.width, r.height),
      actors, props: [],
      relation: { angle_deg: rel.angle, label: rel.label },
      facing: facing && facing.label !== 'ambiguous' ? { angle_deg: facing.angle, label: facing.label } : null,
      visible_pixels: {},
      stimulus: { file: `${r.id}.png`, source: r.source, format: /\.jpe?g$/i.test(r.source) ? 'jpeg' : 'png', width: r.width, height: r.height },
    },
  };
}

/**
 * The camera as the lab records it: the position, the yaw and pitch back from Unreal's
 * rotation (roll kept as stored, sign flipped by the mirror), intrinsics from the horizontal
 * field of view and the image's own size. Labels never use it; it documents the view.
 */
function cameraOf(eye: [number, number, number], rot: z.infer<typeof Rot> | undefined, hfov: number | undefined, width: number, height: number): RelationParams['camera'] {
  const yaw = fromUnrealYaw(rot?.yaw ?? 0), pitch = Math.max(-80, Math.min(80, rot?.pitch ?? 0));
  const r = Math.PI / 180;
  const dir: [number, number, number] = [Math.cos(yaw * r) * Math.cos(pitch * r), Math.sin(yaw * r) * Math.cos(pitch * r), Math.sin(pitch * r)];
  const fov = hfov ?? 90;
  const cam = lookAtCamera(eye, [eye[0] + dir[0], eye[1] + dir[1], eye[2] + dir[2]], width, fov);
  const fx = width / 2 / Math.tan((fov * r) / 2);
  return {
    ...cam,
    rotation: { ...cam.rotation, roll: -(rot?.roll ?? 0) + 0 },
    intrinsics: { width, height, fx, fy: fx, cx: width / 2, cy: height / 2, fov_deg: fov },
  };
}
