// Captured rooms on the main side (docs/DESIGN.md section 9): reads a CaptureRoom document, opens
// its splat file with the lab's readers (readSplatFile through importSplatFile: up axis, yaw,
// recentre, metric scale), scales it to metres and builds its collider: the supplied .obj mesh
// through a BVH, else a voxel occupancy grid of the Gaussians.
// Inputs: the tasks folder and the document's path inside it. Output: LoadedCapture.
// Invariant: capture and mesh paths resolve inside the tasks folder or under the captures folder
// (SPLATLAB_CAPTURES, default <lab home>/captures); anything else is refused
// with one line, and nothing is copied.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { CaptureRoomSchema, type CaptureRoom } from '../../../shared/kinds/search/capture';
import type { Collider } from '../../../shared/kinds/search/collide';
import { MeshCollider } from '../../../shared/kinds/search/mesh-collider';
import { parseObj } from '../../../shared/kinds/search/obj';
import { VoxelGrid } from '../../../shared/kinds/search/voxels';
import type { Splats } from '../../../shared/scene/splats';
import { importSplatFile } from '../../formats/import';
import { readJsonChecked } from '../../io/json-file';
import { labHome } from '../../io/home';
import { taskFile } from '../../tasks/paths';

export interface LoadedCapture {
  doc: CaptureRoom;
  splats: Splats;
  collider: Collider;
  /** 'mesh (N triangles)' or 'voxels (N occupied)'. */
  colliderKind: string;
  /** The import's decisions (up axis, placement), one line each. */
  lines: string[];
}

/**
 * The configured captures folder: SPLATLAB_CAPTURES, else <lab home>/captures (the folder the
 * debugger lists too). Never a default outside the project and the lab home (issue 38 item 8:
 * it was ../shared/data beside the checkout, absent in a packaged app).
 */
export function capturesRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SPLATLAB_CAPTURES ?? join(labHome(env), 'captures'));
}

function inside(root: string, path: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** A document's file path on disk, or one line saying why it is refused. */
export function resolveCapturePath(tasksDir: string, p: string): string {
  if (isAbsolute(p)) {
    const root = capturesRoot();
    const abs = resolve(p);
    if (!inside(root, abs)) throw new Error(`${p}: an absolute capture path must lie under the captures folder ${root} (set SPLATLAB_CAPTURES)`);
    return abs;
  }
  const abs = resolve(tasksDir, p);
  if (!inside(resolve(tasksDir), abs)) throw new Error(`${p}: a relative capture path must stay inside the tasks folder`);
  return taskFile(tasksDir, relative(resolve(tasksDir), abs));
}

export function readCaptureDoc(tasksDir: string, docPath: string): CaptureRoom {
  return readJsonChecked(taskFile(tasksDir, docPath), CaptureRoomSchema, { what: 'room', error: Error });
}

export async function loadCapture(tasksDir: string, docPath: string, signal?: AbortSignal): Promise<LoadedCapture> {
  const doc = readCaptureDoc(tasksDir, docPath);
  const file = resolveCapturePath(tasksDir, doc.capture);
  const p = doc.placement;
  const imported = await importSplatFile(file, { up: p.up, placement: { yawDeg: p.yaw_deg, recentre: p.recentre, scale: 'metric' }, precision: 'f32', signal });
  const splats = imported.placed.splats;
  const k = p.metres_per_unit;
  if (k !== 1) {
    for (let i = 0; i < splats.means.length; i++) splats.means[i] *= k;
    for (let i = 0; i < splats.scales.length; i++) splats.scales[i] *= k;
  }
  const lines = [...imported.lines, ...(k !== 1 ? [`scaled by ${k} to metres`] : [])];
  if (doc.mesh) {
    const meshPath = resolveCapturePath(tasksDir, doc.mesh);
    let mesh;
    try {
      mesh = parseObj(readFileSync(meshPath, 'utf8'));
    } catch (err) {
      throw new Error(`mesh ${meshPath}: ${(err as Error).message}`);
    }
    const collider = new MeshCollider(mesh);
    return { doc, splats, collider, colliderKind: `mesh (${collider.triangleCount} triangles)`, lines };
  }
  const grid = VoxelGrid.fromSplats(splats, { voxel: doc.voxels.size, minOpacity: doc.voxels.min_opacity, sigmas: doc.voxels.sigmas });
  return { doc, splats, collider: grid, colliderKind: `voxels (${grid.count()} occupied of ${doc.voxels.size} m)`, lines };
}
