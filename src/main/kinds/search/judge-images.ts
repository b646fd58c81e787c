// The two images the E3VS judge sees (docs/TASKS.md, "Scoring search episodes"): the view the
// episode ended at (the last logged pose) and the task's goal view, 512x512 at 90 degrees, as PNG.
// Inputs: the tasks folder, a judge log (its path and spec), optionally the lab's view renderer.
// Output: { end, goal } or null when the log has no pose. Invariant: each room is loaded once
// per provider; images are rendered through the one search render entry (renderViewAsync).
import { encodePng } from '../../io/png-encode';
import { renderViewAsync, type AsyncViewRenderer } from '../../../shared/kinds/search/render';
import type { Pose } from '../../../shared/kinds/search/pose';
import { readTrajectory } from '../../env/trajectory';
import type { JudgeImages, JudgeLog } from './judge';
import { loadTaskScene, type RoomScene } from './scene';
import type { LoadedCapture } from './capture-scene';

/** The viewpoint after the log's last step (its hidden search part), or null. */
export function endPose(path: string): Pose | null {
  const steps = readTrajectory(path).steps;
  for (let i = steps.length - 1; i >= 0; i--) {
    const pose = (steps[i] as { search?: { pose?: Pose } }).search?.pose;
    if (pose) return pose;
  }
  return null;
}

export function judgeImages(tasksDir: string, renderer?: AsyncViewRenderer): (log: JudgeLog) => Promise<JudgeImages | null> {
  const cache = new Map<string, RoomScene | LoadedCapture>();
  const png = async (scene: RoomScene, pose: Pose) => {
    const img = await renderViewAsync(scene.splats, pose, renderer);
    return encodePng({ width: img.width, height: img.height, data: img.rgb });
  };
  return async (log) => {
    const pose = endPose(log.path);
    if (!pose) return null;
    const scene = await loadTaskScene(tasksDir, log.spec, cache);
    return { end: await png(scene, pose), goal: await png(scene, log.spec.goal) };
  };
}
