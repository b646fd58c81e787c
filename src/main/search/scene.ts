// Search rooms on the main side: reads a room spec file once and derives its Gaussians, exact
// collider and visibility (docs/DESIGN.md section 9); the loaded task owns them (no module state).
// Input: the path of a room spec JSON. Output: RoomScene. Invariant: everything is derived from
// the spec deterministically, so two processes build the same scene from the same file.
import { readFileSync } from 'node:fs';
import { PrimitiveCollider } from '../../shared/search/collide';
import { roomParts, RoomSpecSchema, type RoomSpec } from '../../shared/search/room';
import { splatRoom } from '../../shared/search/splat-room';
import { RoomVisibility } from '../../shared/search/visibility';
import type { Splats } from '../../shared/scene/splats';

export interface RoomScene {
  room: RoomSpec;
  splats: Splats;
  collider: PrimitiveCollider;
  visibility: RoomVisibility;
}

export function roomScene(room: RoomSpec): RoomScene {
  return {
    room,
    splats: splatRoom(room),
    collider: new PrimitiveCollider(roomParts(room).map((p) => p.part)),
    visibility: new RoomVisibility(room),
  };
}

/** Reads and validates a room file; one line naming the file and the first problem on failure. */
export function readRoom(path: string): RoomSpec {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`room ${path}: ${(err as Error).message}`);
  }
  const res = RoomSpecSchema.safeParse(json);
  if (!res.success) throw new Error(`room ${path}: ${res.error.issues[0].path.join('.')}: ${res.error.issues[0].message}`);
  return res.data;
}

/** The scene of a room file. */
export function loadRoomScene(path: string): RoomScene {
  return roomScene(readRoom(path));
}
