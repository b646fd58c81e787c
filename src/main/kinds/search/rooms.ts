// The room documents of a tasks folder as the annotation view and the exports use them: list
// procedural rooms (search/rooms/*.json) and captured rooms (search/captures/*.json), and open
// one as a scene to navigate (Gaussians, collider, camera radius, a suggested start).
// Inputs: the tasks folder, a room document path inside it. Output: RoomDoc.
// Invariant: the same loaders as tasks (./scene.ts, ./capture-scene.ts), so what an annotator
// walks through is what a player of the exported task walks through.
import { existsSync } from 'node:fs';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import type { Collider } from '../../../shared/kinds/search/collide';
import type { Pose } from '../../../shared/kinds/search/pose';
import { DEFAULT_RADIUS } from '../../../shared/kinds/search/world';
import type { Splats } from '../../../shared/scene/splats';
import { loadCapture } from './capture-scene';
import { withProps } from './props';
import { captureTaskScene, isCaptureRoomFile, loadRoomScene, type RoomScene } from './scene';
import { MarkedAnswerability, DEFAULT_TOLERANCE } from '../../../shared/kinds/search/answerability';
import { layeredEntries, taskFile } from '../../tasks/paths';

/** Procedural room specs and captured-room documents, inside a tasks folder. */
export const ROOMS_DIR = 'search/rooms';
export const CAPTURES_DIR = 'search/captures';
/** Splat files placed as props in procedural rooms. */
export const PROPS_DIR = 'search/props';
export const ROOM_FOLDERS = [ROOMS_DIR, CAPTURES_DIR] as const;

export interface RoomDocRow {
  path: string;
  kind: 'procedural' | 'capture';
  name: string;
}

export function listRoomDocs(tasksDir: string): RoomDocRow[] {
  const out: RoomDocRow[] = [];
  for (const folder of ROOM_FOLDERS) {
    for (const f of layeredEntries(tasksDir, folder).map((e) => e.name).filter((n) => n.endsWith('.json')).sort()) {
      const path = `${folder}/${f}`;
      try {
        out.push({ path, kind: isCaptureRoomFile(taskFile(tasksDir, path)) ? 'capture' : 'procedural', name: f.slice(0, -5) });
      } catch {
        // An unreadable document is not a room; opening it reports why.
      }
    }
  }
  return out;
}

export interface RoomDoc {
  path: string;
  kind: 'procedural' | 'capture';
  splats: Splats;
  collider: Collider;
  radius: number;
  /** Where an annotator starts: the middle of the room at eye height. */
  start: Pose;
  /** What loading decided (collider kind, import lines). */
  lines: string[];
  /** The scene a task in this room plays in. */
  sceneFor(spec: SearchTaskSpec): RoomScene;
}

function middle(s: Splats): Pose {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < s.count; i++) for (let a = 0; a < 3; a++) {
    lo[a] = Math.min(lo[a], s.means[i * 3 + a]);
    hi[a] = Math.max(hi[a], s.means[i * 3 + a]);
  }
  const r = (v: number) => Math.round(v * 4) / 4;
  return { x: r((lo[0] + hi[0]) / 2), y: r((lo[1] + hi[1]) / 2), z: r(Math.min(hi[2] - 0.5, lo[2] + 1.25)), yaw: 0, pitch: 0 };
}

export async function loadRoomDoc(tasksDir: string, path: string, signal?: AbortSignal): Promise<RoomDoc> {
  if (!/^[A-Za-z0-9_./-]+\.json$/.test(path) || path.split('/').includes('..')) throw new Error(`room ${path}: a room is a .json path inside the tasks folder`);
  const file = taskFile(tasksDir, path);
  if (!existsSync(file)) throw new Error(`room ${path}: no such file in ${tasksDir}`);
  if (isCaptureRoomFile(file)) {
    const c = await loadCapture(tasksDir, path, signal);
    return {
      path, kind: 'capture', splats: c.splats, collider: c.collider, radius: c.doc.radius, start: middle(c.splats),
      lines: [`collider: ${c.colliderKind}`, ...c.lines], sceneFor: (spec) => captureTaskScene(c, spec),
    };
  }
  const scene = await withProps(loadRoomScene(file), tasksDir, signal);
  const [X, Y] = scene.room.size;
  return {
    path, kind: 'procedural', splats: scene.splats, collider: scene.collider, radius: DEFAULT_RADIUS,
    start: { x: Math.round(X * 2) / 4, y: Math.round(Y * 2) / 4, z: 1.25, yaw: 0, pitch: 0 },
    lines: [`collider: exact primitives (${scene.room.nodes.length} nodes)`],
    sceneFor: (spec) => (spec.annotation ? { ...scene, visibility: new MarkedAnswerability(spec.answerable, spec.tolerance ?? DEFAULT_TOLERANCE) } : scene),
  };
}
