// A generated captured room for the search tests: a small procedural room's Gaussians written as
// an INRIA .ply (optionally with degree-1 spherical harmonics) by an independent writer (PlayCanvas splat-transform, the format tests' oracle),
// a collision mesh (.obj of the parts' boxes, optionally a 1 cm partition) and the capture
// document pointing at both, all inside a temporary tasks folder. Nothing third-party is committed.
// Inputs: a tasks folder. Output: the document's path inside it, the room and the files written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { partAabb } from '../../../../src/shared/authoring/geometry';
import type { Vec3 } from '../../../../src/shared/authoring/primitives';
import { boxMesh, mergeMeshes, writeObj, type TriangleMesh } from '../../../../src/shared/kinds/search/obj';
import { roomParts, type RoomSpec } from '../../../../src/shared/kinds/search/room';
import { splatRoom } from '../../../../src/shared/kinds/search/splat-room';
import { box, emptyRoom, target } from '../../../shared/kinds/search/rooms';
import { oracleWrite, SH_C0 } from '../../formats/oracle';

export function captureRoom(): RoomSpec {
  const room = emptyRoom([
    { id: 'table-1', role: 'furniture', category: 'table', color: 'brown', parts: [box([2.2, 2.2, 0.35], [0.6, 0.6, 0.7], '#8b5a2b')] },
    target('cube-1', [2.2, 2.2, 0.8], 0.2, 'red'),
  ], [3, 3, 2.4]);
  return { ...room, name: 'gen-capture', splat: { spacing: 0.08, shading: 'shaded' } };
}

/** The room's parts as boxes (their AABBs), plus any extra meshes. */
export function roomMesh(room: RoomSpec, extra: TriangleMesh[] = []): TriangleMesh {
  return mergeMeshes([...roomParts(room).map(({ part }) => {
    const b = partAabb(part);
    return boxMesh(b.min as Vec3, b.max as Vec3);
  }), ...extra]);
}

export interface GeneratedCapture {
  room: RoomSpec;
  /** Capture documents inside the tasks folder: with the mesh, and with voxels only. */
  meshDoc: string;
  voxelDoc: string;
  plyPath: string;
  count: number;
}

/**
 * Writes the generated capture into `tasksDir` (search/captures/...). `sh`: the .ply carries
 * degree-1 spherical harmonics as a 3DGS training run writes them (nine f_rest columns, small
 * view-dependent terms that vary per Gaussian), not only the base colour.
 */
export async function writeGeneratedCapture(tasksDir: string, opts: { partition?: boolean; sh?: boolean } = {}): Promise<GeneratedCapture> {
  const room = captureRoom();
  const s = splatRoom(room);
  const n = s.count;
  const col = (f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));
  const cols: Record<string, Float32Array> = {
    x: col((i) => s.means[i * 3]), y: col((i) => s.means[i * 3 + 1]), z: col((i) => s.means[i * 3 + 2]),
    scale_0: col((i) => Math.log(s.scales[i * 3])), scale_1: col((i) => Math.log(s.scales[i * 3 + 1])), scale_2: col((i) => Math.log(s.scales[i * 3 + 2])),
    rot_0: col((i) => s.quats[i * 4]), rot_1: col((i) => s.quats[i * 4 + 1]), rot_2: col((i) => s.quats[i * 4 + 2]), rot_3: col((i) => s.quats[i * 4 + 3]),
    f_dc_0: col((i) => (s.colors[i * 3] - 0.5) / SH_C0), f_dc_1: col((i) => (s.colors[i * 3 + 1] - 0.5) / SH_C0), f_dc_2: col((i) => (s.colors[i * 3 + 2] - 0.5) / SH_C0),
    // Opacity 0.99 (the procedural splats' 1 has no finite logit).
    opacity: col(() => Math.log(0.99 / 0.01)),
  };
  if (opts.sh) for (let j = 0; j < 9; j++) cols[`f_rest_${j}`] = col((i) => 0.04 * Math.sin(0.7 * i + 1.3 * j));
  const dataDir = join(tasksDir, 'search', 'captures', 'data');
  mkdirSync(dataDir, { recursive: true });
  const plyPath = await oracleWrite('ply', cols, dataDir);
  // The 1 cm partition across the middle of the room (x = 1.5), for the thin-wall sweep.
  const partition = opts.partition ? [boxMesh([1.495, 0, 0], [1.505, 3, 2.4])] : [];
  writeFileSync(join(dataDir, 'room.obj'), writeObj(roomMesh(room, partition)));
  const doc = (mesh: boolean) => ({
    type: 'capture', name: mesh ? 'gen-capture' : 'gen-capture-voxels', capture: 'search/captures/data/scene.ply',
    placement: { up: '+z', recentre: 'none', metres_per_unit: 1 }, ...(mesh ? { mesh: 'search/captures/data/room.obj' } : {}), radius: 0.1,
  });
  writeFileSync(join(tasksDir, 'search', 'captures', 'gen-capture.json'), `${JSON.stringify(doc(true), null, 1)}\n`);
  writeFileSync(join(tasksDir, 'search', 'captures', 'gen-capture-voxels.json'), `${JSON.stringify(doc(false), null, 1)}\n`);
  return { room, meshDoc: 'search/captures/gen-capture.json', voxelDoc: 'search/captures/gen-capture-voxels.json', plyPath, count: n };
}
