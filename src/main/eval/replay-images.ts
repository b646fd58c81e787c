// The images of a logged episode, for the Inspect export's messages (docs/AGENTS.md "Inspect
// export"): trajectories keep no images, so the episode is played again from its logged calls on a
// fresh live env of its kind, with no log and no per-step hidden grade, and each call's image is
// kept (the first observation's reference sheet or trial image, view_references, render_views,
// render_angle, a search view). The environment is deterministic, so these are the images the
// player received. Input: a trajectory, its loaded task, the lab's grader (SplatBench renders
// with it). Output: PNG bytes by step (0: the first observation).
// Invariant: nothing is written (no log), and a call the replay cannot make ends the replay with
// the images so far (the export's text stays the log's own either way).
import type { Trajectory } from '../env/trajectory';
import type { EnvGrader } from '../env/types';
import type { KindTask } from '../kinds/kind';
import { mainKind } from '../kinds/registry';

export async function replayImages(traj: Trajectory, task: KindTask, grader: EnvGrader): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  const { env, obs } = await mainKind(task).reset(task, { grader, protocol: 'agent', player: 'inspect-export', gradeEachStep: false });
  try {
    if (obs.image) out.set(0, obs.image);
    for (const s of traj.steps) {
      if (s.step === 0) continue;
      if (env.done) break;
      const r = await env.step({ tool: s.tool, args: s.args });
      if (r.image) out.set(s.step, r.image);
    }
  } finally {
    await env.close();
  }
  return out;
}
