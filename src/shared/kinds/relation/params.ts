// The parameters file written beside every relation image (`params_NNNN.json`): the camera
// (position, rotation, intrinsics), every actor's role, label, position and yaw, the scenery,
// and the stored labels. Inputs/outputs: JSON. Invariant: the label is recomputable from the
// camera position and the actors alone (src/shared/kinds/relation/labels.ts); the image is
// re-renderable from the file alone (environment, actors, props, camera).
import { z } from 'zod';
import { ENVIRONMENT_IDS } from './environments';
import { RELATION_CLASSES, RELATION_TASKS } from './labels';

export const PARAMS_FORMAT = 'splatlab.relation.params/1';

const num = z.number().refine(Number.isFinite, 'must be a finite number');
const vec3 = z.tuple([num, num, num]);

/**
 * `person`: the person standing in an egocentric image, whose view does not count there (SpaRRTa
 * renders both tasks from one scene with the person in it; its egocentric images show them too).
 */
export const ROLES = ['reference', 'target', 'observer', 'person'] as const;

/** SpaRRTa's roles, or the two objects' swapped (src/shared/kinds/relation/dataset.ts). */
export const RELATION_ROLE_SETS = ['sparrta', 'swapped'] as const;
export type Role = (typeof ROLES)[number];

export const ActorSchema = z.strictObject({
  role: z.enum(ROLES),
  /** The model name, e.g. 'bear' (the object's class label, not the relation label). */
  label: z.string().min(1),
  position: vec3, // metres, world, Z up; the point on the ground under the object
  yaw: num, // degrees about +Z, 0 = facing +X
});
export type Actor = z.infer<typeof ActorSchema>;

export const PropSchema = z.strictObject({ label: z.string().min(1), position: vec3, yaw: num });
export type Prop = z.infer<typeof PropSchema>;

export const CameraParamsSchema = z.strictObject({
  position: vec3,
  /** Degrees: yaw about +Z from +X, pitch up from the ground plane, roll about the view axis. */
  rotation: z.strictObject({ yaw: num, pitch: num, roll: num }),
  /** Row-major 4x4 world-to-camera matrix, OpenCV axes (+X right, +Y down, +Z forward). */
  world_to_camera: z.array(num).length(16),
  intrinsics: z.strictObject({
    width: z.number().int().positive(), height: z.number().int().positive(),
    fx: num, fy: num, cx: num, cy: num, fov_deg: num,
  }),
});
export type CameraParams = z.infer<typeof CameraParamsSchema>;

const labelled = z.strictObject({ angle_deg: num, label: z.enum(RELATION_CLASSES) });

export const RelationParamsSchema = z.strictObject({
  format: z.literal(PARAMS_FORMAT),
  id: z.string().min(1),
  environment: z.enum(ENVIRONMENT_IDS),
  triple: z.string().min(1),
  task: z.enum(RELATION_TASKS),
  seed: z.number().int(),
  /** The observer of the egocentric task is the camera; of the allocentric task, the human actor. */
  observer: z.enum(['camera', 'human']),
  margin_deg: num,
  /** Whose role is whose; absent in files written before the option (SpaRRTa's roles then). */
  roles: z.enum(RELATION_ROLE_SETS).optional(),
  camera: CameraParamsSchema,
  actors: z.array(ActorSchema).min(2),
  props: z.array(PropSchema),
  /** Reference labelling: forward = reference - observer, rel = target - reference. */
  relation: labelled,
  /** Allocentric only: forward = the person's facing direction (yaw); null when ambiguous. */
  facing: labelled.nullable(),
  /** Pixels of the 224x224 image each role covers (the visibility check). */
  visible_pixels: z.record(z.string(), z.number().int().nonnegative()),
  /**
   * An imported image (`relation import`, docs/RELATION.md "SpaRRTa import"): the PNG beside this
   * file holds the decoded pixels of the source image at its own size, never resampled; the
   * scene is not re-renderable (no scenery), so this image is the stimulus.
   */
  stimulus: z.strictObject({
    file: z.string().regex(/^[A-Za-z0-9_.-]+\.png$/, 'a PNG file name beside the parameters file'),
    source: z.string().min(1),
    format: z.enum(['jpeg', 'png']),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }).optional(),
});
export type RelationParams = z.infer<typeof RelationParamsSchema>;

export function parseParams(json: unknown, where: string): RelationParams {
  const r = RelationParamsSchema.safeParse(json);
  if (r.success) return r.data;
  const iss = r.error.issues[0];
  throw new Error(`${where}: not a relation parameters file (${iss.path.join('.') || 'top level'}: ${iss.message})`);
}

export function actorOf(p: RelationParams, role: Role): Actor {
  const a = p.actors.find((x) => x.role === role);
  if (!a) throw new Error(`parameters ${p.id} have no ${role} actor`);
  return a;
}
