// Seeded layouts of one relation sample: where the reference, the target and the person (the
// observer of the allocentric task, a bystander in the egocentric one) stand, their yaws, the scenery and the camera pose; then the labels and the ray-cast
// visibility check. Inputs: environment, triple, task, the class wanted and a seed. Output: a
// complete parameters record (without its image).
// Invariant: footprints never overlap; every role covers at least MIN_VISIBLE pixels of a
// 56x56 centre-ray pass; the stored label is the rule's label of the stored positions and is
// never ambiguous. The wanted class steers where the target is drawn, never the label.
import { mulberry32, type Random } from '../../math/random';
import type { Vec3 } from '../../authoring/primitives';
import { IMAGE_SIZE, lookAtCamera, project, toCamera } from './camera';
import { environment, groundLevel, tripleOf, type EnvironmentSpec } from './environments';
import { angleInClass, facingRelationOf, MARGIN_DEG, relationOf, type RelationClass, type RelationTask } from './labels';
import { relationModel } from './models/index';
import { PARAMS_FORMAT, type Actor, type Prop, type RelationParams } from './params';
import { buildScene } from './scene';
import { visibleCounts } from './render';

export const OBSERVER_MODEL = 'human';
/** Pixels each role must cover in the 56x56 pre-check (about 0.2 % of the image). */
export const MIN_VISIBLE = 6;
const CHECK_SIZE = 56;
/** Free ground between two footprints (metres). */
const GAP = 0.35;
const MAX_TRIES = 400;

export interface LayoutRequest {
  environment: string;
  triple: string;
  task: RelationTask;
  /** The class the target is drawn for (class-balanced datasets). */
  wanted: RelationClass;
  seed: number;
  id: string;
  /** The oriented object becomes the reference (a dataset made with `roles: swapped`). */
  swapRoles?: boolean;
}

interface Disc { x: number; y: number; r: number }

const overlaps = (d: Disc, others: readonly Disc[]) => others.some((o) => Math.hypot(d.x - o.x, d.y - o.y) < d.r + o.r + GAP);

function inRegion(env: EnvironmentSpec, x: number, y: number, r: number, radius: number): boolean {
  if (Math.hypot(x, y) > radius) return false;
  return env.halfWidth === undefined || Math.abs(y) + r <= env.halfWidth;
}

function cameraAzimuth(env: EnvironmentSpec, rng: Random): number {
  const ranges = env.cameraAzimuths ?? [[0, 360]];
  const [a, b] = ranges[rng.int(ranges.length)];
  return rng.uniform(a, b);
}

/** One attempt; null when its draw breaks a constraint (the caller draws again). */
function attempt(req: LayoutRequest, env: EnvironmentSpec, rng: Random): RelationParams | null {
  const spec = tripleOf(env, req.triple);
  const t = req.swapRoles ? { ...spec, reference: spec.target, target: spec.reference } : spec;
  const z0 = env.id === 'bridge' ? 0 : groundLevel(env);
  const margin = MARGIN_DEG[req.task];
  const R = env.layoutRadius;
  const discs: Disc[] = [];
  const place = (model: string, x: number, y: number): Disc | null => {
    const d = { x, y, r: relationModel(model).footprint };
    if (!inRegion(env, x, y, d.r, R + 1.5) || overlaps(d, discs)) return null;
    discs.push(d);
    return d;
  };
  // The camera: around the layout centre, 6.5-10 m away, 1.4-3.2 m up.
  const az = (cameraAzimuth(env, rng) * Math.PI) / 180;
  const dist = rng.uniform(6.5, 10);
  const eye: Vec3 = [dist * Math.cos(az), dist * Math.sin(az), z0 + rng.uniform(1.4, 3.2)];
  const actors: Actor[] = [];
  const ref = place(t.reference, rng.uniform(-R, R), rng.uniform(-R, R));
  if (!ref) return null;
  actors.push({ role: 'reference', label: t.reference, position: [ref.x, ref.y, z0], yaw: rng.uniform(0, 360) });
  let observerXY: [number, number] = [eye[0], eye[1]];
  let personYaw = 0;
  // The person stands in every image, as in SpaRRTa's (one scene serves both tasks): the
  // observer of the allocentric task, a bystander (`person`) of the egocentric one.
  const p = place(OBSERVER_MODEL, rng.uniform(-R, R), rng.uniform(-R, R));
  if (!p) return null;
  personYaw = rng.uniform(0, 360);
  actors.push({ role: req.task === 'allo' ? 'observer' : 'person', label: OBSERVER_MODEL, position: [p.x, p.y, z0], yaw: personYaw });
  if (req.task === 'allo') observerXY = [p.x, p.y];
  // The target: at the wanted class's angle from forward = reference - observer.
  const fwd = Math.atan2(ref.y - observerXY[1], ref.x - observerXY[0]);
  const ang = fwd + (angleInClass(req.wanted, margin, rng.next()) * Math.PI) / 180;
  const r = rng.uniform(1.6, 3.4) + relationModel(t.target).footprint;
  const tg = place(t.target, ref.x + r * Math.cos(ang), ref.y + r * Math.sin(ang));
  if (!tg) return null;
  actors.push({ role: 'target', label: t.target, position: [tg.x, tg.y, z0], yaw: rng.uniform(0, 360) });

  // Look at the actors' centroid at object height, so all three sit near the image centre.
  const cx = discs.reduce((s, d) => s + d.x, 0) / discs.length;
  const cy = discs.reduce((s, d) => s + d.y, 0) / discs.length;
  const camera = lookAtCamera(eye, [cx + rng.uniform(-0.4, 0.4), cy + rng.uniform(-0.4, 0.4), z0 + 0.5]);
  const pad = 0.06 * IMAGE_SIZE;
  for (const a of actors) {
    const p = project(camera, [a.position[0], a.position[1], a.position[2] + relationModel(a.label).scale * 0.6]);
    if (!p || p.u < pad || p.u > IMAGE_SIZE - pad || p.v < pad || p.v > IMAGE_SIZE - pad) return null;
  }
  const props = scatterProps(env, rng, discs, [eye[0], eye[1]], z0);
  const rel = relationOf({ observer: req.task === 'ego' ? eye : observerXY, reference: [ref.x, ref.y], target: [tg.x, tg.y] }, margin);
  // By construction the label is the wanted class; a float edge that says otherwise is redrawn.
  if (rel.label !== req.wanted) return null;
  const facing = req.task === 'allo' ? facingRelationOf({ reference: [ref.x, ref.y], target: [tg.x, tg.y] }, personYaw, margin) : null;
  const scene = buildScene(env, actors, props);
  const k = CHECK_SIZE / IMAGE_SIZE;
  const small = { ...camera, intrinsics: { ...camera.intrinsics, width: CHECK_SIZE, height: CHECK_SIZE, fx: camera.intrinsics.fx * k, fy: camera.intrinsics.fy * k, cx: CHECK_SIZE / 2, cy: CHECK_SIZE / 2 } };
  const vis = visibleCounts(scene, toCamera(small));
  if (actors.some((a) => (vis[a.role] ?? 0) < MIN_VISIBLE)) return null;
  return {
    format: PARAMS_FORMAT, id: req.id, environment: env.id, triple: t.id, task: req.task, seed: req.seed,
    observer: req.task === 'ego' ? 'camera' : 'human', margin_deg: margin, roles: req.swapRoles ? 'swapped' : 'sparrta',
    camera, actors, props,
    relation: { angle_deg: rel.angle, label: rel.label },
    facing: facing && facing.label !== 'ambiguous' ? { angle_deg: facing.angle, label: facing.label } : null,
    visible_pixels: {},
  };
}

/**
 * Scenery beyond the layout, mostly behind it as seen from the camera (within 110 degrees of
 * the far side), so it frames the objects without hiding them.
 */
function scatterProps(env: EnvironmentSpec, rng: Random, actors: readonly Disc[], eye: [number, number], z: number): Prop[] {
  const away = Math.atan2(-eye[1], -eye[0]);
  const discs: Disc[] = [...actors, { x: eye[0], y: eye[1], r: 1 }];
  const out: Prop[] = [];
  for (const spec of env.props) {
    const fp = relationModel(spec.model).footprint;
    for (let n = 0, tries = 0; n < spec.count && tries < 40; tries++) {
      const a = away + ((rng.uniform(-110, 110)) * Math.PI) / 180;
      const d = env.layoutRadius + 2 + fp + rng.uniform(0, 12);
      const disc = { x: d * Math.cos(a), y: d * Math.sin(a), r: fp };
      if (env.halfWidth !== undefined && spec.model === 'lamp') disc.y = Math.sign(disc.y || 1) * (env.halfWidth + 0.2);
      if (env.halfWidth !== undefined && Math.abs(disc.y) > env.halfWidth + 0.5) continue;
      if (overlaps(disc, discs)) continue;
      discs.push(disc);
      out.push({ label: spec.model, position: [disc.x, disc.y, z], yaw: rng.uniform(0, 360) });
      n++;
    }
  }
  return out;
}

/** Draws layouts from the seed until one satisfies every constraint. */
export function sampleLayout(req: LayoutRequest): RelationParams {
  const env = environment(req.environment);
  const rng = mulberry32(req.seed);
  for (let i = 0; i < MAX_TRIES; i++) {
    const p = attempt(req, env, rng);
    if (p) return p;
  }
  throw new Error(`no valid ${req.task} layout for ${req.environment}/${req.triple} (${req.wanted}) after ${MAX_TRIES} draws from seed ${req.seed}`);
}
