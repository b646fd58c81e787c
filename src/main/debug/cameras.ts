// Resolves the debugger's camera choice to an explicit Camera: an orbit, a named view (the
// task's own cameras when the scene has a task, else the standard V0..V7 / H0..H7 orbits at
// 256x256) or a camera JSON (explicit or orbit, as `splatlab render --camera`).
// Input: DebugCamera and the session's task. Output: the Camera and its view name (or null).
// Invariant: a failure is one DebugSourceError line; image size is capped so the CPU reference
// answers in interactive time.
import { MAX_DEBUG_PIXELS, MAX_DEBUG_SIDE, type DebugCamera } from '../../shared/api/debug';
import { cameraFromFile } from '../../shared/camera/spec';
import { HELDOUT_VIEWS, REFERENCE_VIEWS, viewCameras } from '../../shared/camera/views';
import type { Camera } from '../../shared/raster/types';
import type { LoadedTask, RefView } from '../tasks/load';
import { DebugSourceError } from './sources';

/** Largest image the debugger renders, in pixels (the CPU reference is the truth here): the schema's own limit. */
export { MAX_DEBUG_PIXELS };
export const STANDARD_VIEW_SIZE = 256;

/** Named views of a session: the task's reference then held-out views, or the standard sets. */
export function namedViews(task: LoadedTask | null): { name: string; camera: Camera; view: RefView | null }[] {
  if (task) return [...task.reference, ...task.heldout].map((v) => ({ name: v.name, camera: v.camera, view: v }));
  const sets = [...REFERENCE_VIEWS, ...HELDOUT_VIEWS];
  const cams = viewCameras(sets, STANDARD_VIEW_SIZE);
  return sets.map((v, i) => ({ name: v.name, camera: cams[i], view: null }));
}

export interface ResolvedCamera {
  camera: Camera;
  view: RefView | null; // the task view (with its photo) when a named task view was chosen
  name: string | null;
}

export function resolveCamera(choice: DebugCamera, task: LoadedTask | null): ResolvedCamera {
  let resolved: ResolvedCamera;
  if (choice.kind === 'view') {
    const views = namedViews(task);
    const found = views.find((v) => v.name === choice.name);
    if (!found) throw new DebugSourceError(`no view '${choice.name}' (this scene has ${views.map((v) => v.name).join(', ')})`);
    resolved = { camera: found.camera, view: found.view, name: found.name };
  } else {
    let json: unknown;
    if (choice.kind === 'json') {
      try {
        json = JSON.parse(choice.text);
      } catch (error) {
        throw new DebugSourceError(`camera JSON is not valid JSON (${(error as Error).message})`);
      }
    } else {
      const { kind: _kind, ...spec } = choice;
      json = spec;
    }
    const cam = cameraFromFile(json);
    if (!cam.ok) throw new DebugSourceError(`camera: ${cam.error}`);
    resolved = { camera: cam.camera, view: null, name: null };
  }
  const { width, height } = resolved.camera;
  if (width * height > MAX_DEBUG_PIXELS) throw new DebugSourceError(`camera is ${width}x${height}: the debugger renders at most ${MAX_DEBUG_PIXELS} pixels (e.g. ${MAX_DEBUG_SIDE}x${MAX_DEBUG_SIDE})`);
  return resolved;
}

/** Stable key of a camera for the per-session caches. */
export function cameraKey(camera: Camera): string {
  return JSON.stringify([camera.width, camera.height, camera.fx, camera.fy, camera.cx, camera.cy, camera.world_to_camera]);
}
