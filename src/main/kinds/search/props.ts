// Captured objects as props of procedural rooms (docs/TASKS.md, search section): a node with
// `capture` names a splat file inside the tasks folder (any format the lab reads); it is read
// with the lab's importer (up axis detected or from the file's header), its opaque Gaussians are
// fitted uniformly into the node's proxy box (centred, standing on its floor), floaters far from
// it dropped, and the result joins the room's Gaussians with its captured colours (no relighting).
// Inputs: a procedural RoomScene, the tasks folder. Output: the scene with its props' Gaussians.
// Invariant: the proxy box stays the prop's collider and visibility solid, so collisions and
// answerability are those of the room spec; a file that cannot be read fails the room in one line.
import { emptySplats, type Splats } from '../../../shared/scene/splats';
import type { RoomNode } from '../../../shared/kinds/search/room';
import { localHalfExtents } from '../../../shared/authoring/geometry';
import type { Part } from '../../../shared/authoring/primitives';
import { importSplatFile } from '../../formats/import';
import type { RoomScene } from './scene';
import { taskFile } from '../../tasks/paths';

/** Gaussians below this opacity do not count towards the object's extent (floaters). */
const SOLID = 0.2;

/** Fits the capture into the node's first part (an axis-aligned proxy box). */
export function fitInto(s: Splats, node: RoomNode): Splats {
  const part = node.parts[0] as Part;
  const half = localHalfExtents(part);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < s.count; i++) {
    if (s.opacities[i] < SOLID) continue;
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a], s.means[i * 3 + a]);
      hi[a] = Math.max(hi[a], s.means[i * 3 + a]);
    }
  }
  if (!Number.isFinite(lo[0])) throw new Error(`prop ${node.id}: the capture has no Gaussian of opacity ${SOLID} or more`);
  const k = Math.min(...[0, 1, 2].map((a) => (2 * half[a]) / Math.max(1e-9, hi[a] - lo[a])));
  const centre = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]];
  const at = [part.pos[0], part.pos[1], part.pos[2] - half[2]];
  const keep: number[] = [];
  for (let i = 0; i < s.count; i++) {
    const p = [0, 1, 2].map((a) => at[a] + k * (s.means[i * 3 + a] - centre[a]));
    const inside = Math.abs(p[0] - part.pos[0]) <= 1.15 * half[0] && Math.abs(p[1] - part.pos[1]) <= 1.15 * half[1] && p[2] >= at[2] - 0.01 && p[2] <= part.pos[2] + 1.15 * half[2];
    if (inside) keep.push(i);
  }
  const out = emptySplats(keep.length, 'f32');
  keep.forEach((i, j) => {
    for (let a = 0; a < 3; a++) {
      out.means[j * 3 + a] = at[a] + k * (s.means[i * 3 + a] - centre[a]);
      out.scales[j * 3 + a] = k * s.scales[i * 3 + a];
      out.colors[j * 3 + a] = Math.min(1, Math.max(0, s.colors[i * 3 + a]));
    }
    out.quats.set(s.quats.subarray(i * 4, i * 4 + 4), j * 4);
    out.opacities[j] = s.opacities[i];
  });
  return out;
}

export function concatSplats(parts: readonly Splats[]): Splats {
  const out = emptySplats(parts.reduce((n, s) => n + s.count, 0), 'f32');
  let at = 0;
  for (const s of parts) {
    out.means.set(s.means.subarray(0, s.count * 3), at * 3);
    out.scales.set(s.scales.subarray(0, s.count * 3), at * 3);
    out.quats.set(s.quats.subarray(0, s.count * 4), at * 4);
    out.colors.set(s.colors.subarray(0, s.count * 3), at * 3);
    out.opacities.set(s.opacities.subarray(0, s.count), at);
    at += s.count;
  }
  return out;
}

/** The scene with every captured prop's Gaussians placed (the same scene when it has none). */
export async function withProps<S extends RoomScene>(scene: S, tasksDir: string, signal?: AbortSignal): Promise<S> {
  const props = scene.room?.nodes.filter((n) => n.capture) ?? [];
  if (!props.length) return scene;
  const placed: Splats[] = [scene.splats];
  for (const n of props) {
    const file = taskFile(tasksDir, n.capture!.file);
    let imported;
    try {
      imported = await importSplatFile(file, { up: 'auto', placement: { yawDeg: 0, recentre: 'none', scale: 'metric' }, precision: 'f32', signal });
    } catch (err) {
      throw new Error(`prop ${n.id} of room ${scene.room!.name}: ${(err as Error).message}`);
    }
    placed.push(fitInto(imported.placed.splats, n));
  }
  return { ...scene, splats: concatSplats(placed) };
}
