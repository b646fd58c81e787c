// Test-only parts truth for the reassembly test task: each part's true pose is its start pose,
// so an untouched part has heading error 0 and a part turned by d degrees has error |d|.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PartsTruth } from '../../../src/shared/authoring/scramble/truth';
import type { LoadedTask } from '../../../src/main/tasks/load';

export function writeStartPoseTruth(task: LoadedTask): string[] {
  const labels = [...new Set((task.init ?? []).map((r) => r.group as string))];
  const truth: PartsTruth = {
    version: 1, seed: 0, k: labels.length, kmeans_iterations: 0, kmeans_converged: true,
    parts: labels.map((label) => {
      const recs = (task.init ?? []).filter((r) => r.group === label);
      const c = [0, 1, 2].map((a) => recs.reduce((s, r) => s + r.pos[a], 0) / recs.length) as [number, number, number];
      return { label, count: recs.length, ids: recs.map((r) => r.id), true_centroid: c, scrambled_centroid: c, translation: [0, 0, 0], rotation_deg: 0, true_positions: recs.map((r) => r.pos), true_quats: recs.map((r) => r.quat) };
    }),
  };
  writeFileSync(join(task.dir, 'parts_truth.json'), JSON.stringify(truth));
  return labels;
}
