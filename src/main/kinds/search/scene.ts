// Search rooms on the main side: reads a room document once and derives its Gaussians, collider
// and answerability (docs/DESIGN.md section 9); the loaded task owns them (no module state).
// Procedural rooms (a RoomSpec): exact primitive collider and the visibility rule. Captured rooms
// (a CaptureRoom document, ./capture-scene.ts): the capture's Gaussians, a mesh or voxel collider
// and the annotators' answerable viewpoints of the task. Captured props of a procedural room are
// placed by ./props.ts.
// Input: the path of a room document (and, for a task, its spec). Output: RoomScene.
// Invariant: everything is derived from the files deterministically, so two processes build the
// same scene from the same files.
import { readFileSync } from 'node:fs';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { DEFAULT_TOLERANCE, MarkedAnswerability, type Answerability } from '../../../shared/kinds/search/answerability';
import { isCaptureDoc, type CaptureRoom } from '../../../shared/kinds/search/capture';
import { PrimitiveCollider, type Collider } from '../../../shared/kinds/search/collide';
import { roomParts, RoomSpecSchema, type RoomSpec } from '../../../shared/kinds/search/room';
import { splatRoom } from '../../../shared/kinds/search/splat-room';
import { RoomVisibility } from '../../../shared/kinds/search/visibility';
import type { Splats } from '../../../shared/scene/splats';
import { loadCapture, type LoadedCapture } from './capture-scene';
import { withProps } from './props';
import { taskFile } from '../../tasks/paths';

export interface RoomScene {
  /** The procedural room (null for a captured room). */
  room: RoomSpec | null;
  /** The captured room's document (null for a procedural room). */
  capture: CaptureRoom | null;
  splats: Splats;
  collider: Collider;
  visibility: Answerability;
}

export function roomScene(room: RoomSpec): RoomScene & { room: RoomSpec; visibility: RoomVisibility } {
  return {
    room,
    capture: null,
    splats: splatRoom(room),
    collider: new PrimitiveCollider(roomParts(room).map((p) => p.part)),
    visibility: new RoomVisibility(room),
  };
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`room ${path}: ${(err as Error).message}`);
  }
}

/** Reads and validates a procedural room file; one line naming the file and the first problem on failure. */
export function readRoom(path: string): RoomSpec {
  const res = RoomSpecSchema.safeParse(readJson(path));
  if (!res.success) throw new Error(`room ${path}: ${res.error.issues[0].path.join('.')}: ${res.error.issues[0].message}`);
  return res.data;
}

/** The scene of a procedural room file. */
export function loadRoomScene(path: string): RoomScene & { room: RoomSpec; visibility: RoomVisibility } {
  return roomScene(readRoom(path));
}

/** True when the room document at `path` is a captured room. */
export function isCaptureRoomFile(path: string): boolean {
  return isCaptureDoc(readJson(path));
}

/** The task's view of a captured room: the shared capture plus its own answerable viewpoints. */
export function captureTaskScene(loaded: LoadedCapture, spec: SearchTaskSpec): RoomScene {
  return { room: null, capture: loaded.doc, splats: loaded.splats, collider: loaded.collider, visibility: new MarkedAnswerability(spec.answerable, spec.tolerance ?? DEFAULT_TOLERANCE) };
}

/**
 * The scene of a task, procedural or captured. `cache` shares loaded rooms between the tasks of
 * one set (a capture is read once).
 */
export async function loadTaskScene(tasksDir: string, spec: SearchTaskSpec, cache?: Map<string, RoomScene | LoadedCapture>): Promise<RoomScene> {
  const path = taskFile(tasksDir, spec.room);
  const hit = cache?.get(spec.room);
  if (hit && 'doc' in hit) return captureTaskScene(hit, spec);
  if (!hit && isCaptureRoomFile(path)) {
    const loaded = await loadCapture(tasksDir, spec.room);
    cache?.set(spec.room, loaded);
    return captureTaskScene(loaded, spec);
  }
  const scene = hit ?? await withProps(loadRoomScene(path), tasksDir);
  cache?.set(spec.room, scene);
  // A task annotated by people in a procedural room keeps the annotators' viewpoints as its truth.
  return spec.annotation ? { ...scene, visibility: new MarkedAnswerability(spec.answerable, spec.tolerance ?? DEFAULT_TOLERANCE) } : scene;
}
