// One replay frame: the scene after a given call of a logged episode, rebuilt by the one replay
// (src/shared/kinds/replay.ts; exact: the env is deterministic), rendered from one
// of the task's held-out cameras with the grader's rasterizer, bounds overlay drawn on, as PNG.
// Inputs: a LoadedTask, a trajectory, a step number, a held-out view name, a renderer.
// Output: PNG bytes (encoded by `encode`: the lab's pool, issue 38 item 1; default this thread)
// and the Gaussian count. Invariant: experimenter-only (held-out cameras).
// `replayFrameFrom` renders the same scene from any camera (the person's recorded viewport pose
// of the process log, so Replay's view follows their camera).
import { replayAll } from '../../shared/kinds/replay';
import { packRecords } from '../../shared/scene/records';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import { rulesFor } from '../kinds/registry';
import { drawOverlay } from '../../shared/image/overlay';
import { localPng, type PngEncoder } from '../workers/png';
import type { Trajectory } from '../env/trajectory';
import type { LoadedTask } from '../tasks/load';
import { StudyError } from './store';

/** The pool's queue of replay frames' PNGs (the study and free-play views). */
export const REPLAY_CLIENT = 'replay';

export interface SceneRenderer {
  renderViews(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]>;
}

export async function replayFrame(task: LoadedTask, traj: Trajectory, step: number, viewName: string, renderer: SceneRenderer, encode: PngEncoder = localPng): Promise<{ png: Uint8Array; gaussians: number }> {
  const view = task.heldout.find((v) => v.name === viewName);
  if (!view) throw new StudyError(`task '${task.spec.task_id}' has no held-out view '${viewName}' (it has ${task.heldout.map((v) => v.name).join(', ')})`);
  return replayFrameFrom(task, traj, step, view.camera, renderer, encode);
}

export async function replayFrameFrom(task: LoadedTask, traj: Trajectory, step: number, camera: Camera, renderer: SceneRenderer, encode: PngEncoder = localPng): Promise<{ png: Uint8Array; gaussians: number }> {
  const episode = rulesFor(task);
  replayAll(episode, traj.steps, { upTo: step });
  const [render] = await renderer.renderViews(packRecords(episode.records?.() ?? []), [camera]);
  // No burnt-in label: the replay panel names the view and the call beside the image.
  const image = drawOverlay({ width: render.width, height: render.height, data: render.rgb }, camera);
  return { png: await encode(image), gaussians: episode.records?.().length ?? 0 };
}
