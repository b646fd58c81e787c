// The test figure's reassembly parts as an authored object (issue 36): parts_truth.json (the two
// groups of the scrambled figure, their true poses) and object.json (primitives with their group
// names), so the paper's heading-error table names the parts (Head, Body) as the authoring does.
// Used by test/main/study/paper.test.ts and test/e2e/paper.e2e.ts. Input: a built tasks folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrambledFigure, testFigure } from './test-figure';
import { TEST_OBJECT } from './test-task';

/** The test figure's reassembly truth (its two groups) and its authoring (primitives with groups), for the heading table. */
export function writePartsTruth(dir: string): void {
  const truth = testFigure();
  const init = scrambledFigure();
  const obj = join(dir, 'objects', TEST_OBJECT);
  const parts = [...new Set(init.map((r) => r.group as string))].map((label) => {
    const ids = init.flatMap((r, i) => (r.group === label ? [i] : []));
    const t = ids.map((i) => truth.find((x) => x.id === init[i].id) as (typeof truth)[number]);
    const c = (v: readonly (readonly number[])[]) => [0, 1, 2].map((k) => v.reduce((a, p) => a + p[k], 0) / v.length);
    return { label, count: ids.length, ids, true_centroid: c(t.map((r) => r.pos)), scrambled_centroid: c(ids.map((i) => init[i].pos)), translation: [0, 0, 0], rotation_deg: 0, true_positions: t.map((r) => r.pos), true_quats: t.map((r) => r.quat) };
  });
  writeFileSync(join(obj, 'parts_truth.json'), JSON.stringify({ version: 1, seed: 1, k: parts.length, kmeans_iterations: 0, kmeans_converged: true, parts }));
  writeFileSync(join(obj, 'object.json'), JSON.stringify({ name: TEST_OBJECT, parts: truth.map((r) => ({ kind: 'sphere', pos: r.pos, group: r.group, size: 0.1 })) }));
}
