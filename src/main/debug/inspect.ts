// The debugger's per-Gaussian inspector for one session: inspectSplats over the scene as the
// grader packs it, with finder hits reported as Gaussian ids (what the 3D view and the contributor
// table show) and non-finite range ends as null (JSON has no NaN).
import type { DebugInspection } from '../../shared/api/debug';
import { inspectSplats } from '../../shared/debug/inspect';
import type { DebugScene } from './session';

export function inspectScene(scene: DebugScene): DebugInspection {
  const r = inspectSplats(scene.splats);
  const num = (v: number): number | null => (Number.isFinite(v) ? v : null);
  return {
    count: r.count,
    shDegree: r.shDegree,
    ranges: r.ranges.map((x) => ({ name: x.name, min: num(x.min), max: num(x.max), mean: num(x.mean) })),
    finders: r.finders.map((f) => ({ name: f.name, rule: f.rule, count: f.count, ids: f.indices.map((i) => scene.records[i]?.id ?? i) })),
  };
}
