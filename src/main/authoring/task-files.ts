// Writers of the task-folder files (docs/DESIGN.md section 5): photos and masks, cameras.json, fit.json,
// init_reassembly.npz, parts_truth.json, anchors.json and the three task specs of an object.
// Inputs: in-memory views, records and metrics. Outputs: files under a (staging) folder.
// Invariant: output bytes depend only on the inputs (fixed key order, fixed number formatting),
// so the same build gives byte-identical files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PartsTruth } from '../../shared/authoring/scramble/truth';
import { OPACITY_MAX, OPACITY_MIN, SCALE_MAX, SCALE_MIN } from '../../shared/scene/policy';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import type { Anchors, CamerasFile, SplatKind, TaskSpec } from '../../shared/task/schema';
import type { ObjectSource } from '../../shared/analysis/object-source';
import { sceneFileJson } from '../../shared/scene/input';
import { writeSceneNpz } from '../io/npz';

/** Budgets of the benchmark (seed: 300 Gaussians, 40 calls, 16 renders; one-shot 1 call, 0 renders). */
export const TASK_BUDGETS: Record<SplatKind, Pick<TaskSpec, 'max_gaussians' | 'max_tool_calls' | 'max_renders'>> = {
  sculpt: { max_gaussians: 300, max_tool_calls: 40, max_renders: 16 },
  reassembly: { max_gaussians: 300, max_tool_calls: 40, max_renders: 16 },
  oneshot: { max_gaussians: 300, max_tool_calls: 1, max_renders: 0 },
};
export const TASK_KINDS: readonly SplatKind[] = ['sculpt', 'reassembly', 'oneshot'];
export const INIT_NPZ = 'init_reassembly.npz';

export function taskId(object: string, kind: SplatKind): string {
  return `${object}__${kind}`;
}

/** An object's budgets: Gaussians (every kind, and the reference fit's cap), calls and renders (sculpt and reassembly; one-shot keeps 1 call, 0 renders). */
export interface Budgets {
  gaussians: number;
  calls: number;
  renders: number;
}
export const DEFAULT_BUDGETS: Readonly<Budgets> = { gaussians: 300, calls: 40, renders: 16 };

/** Budgets given in part, completed with the benchmark's defaults; throws on a non-positive value. */
export function fullBudgets(b: Partial<Budgets> | undefined): Budgets {
  const out = { ...DEFAULT_BUDGETS, ...b };
  for (const [k, v] of Object.entries(out)) {
    if (!Number.isSafeInteger(v) || v < (k === 'renders' ? 0 : 1)) throw new Error(`the ${k} budget must be an integer >= ${k === 'renders' ? 0 : 1} (got ${v})`);
  }
  return out;
}

function kindBudgets(kind: SplatKind, b: Budgets): Pick<TaskSpec, 'max_gaussians' | 'max_tool_calls' | 'max_renders'> {
  if (kind === 'oneshot') return { ...TASK_BUDGETS.oneshot, max_gaussians: b.gaussians };
  return { max_gaussians: b.gaussians, max_tool_calls: b.calls, max_renders: b.renders };
}

export function taskSpecs(object: string, budgets?: Partial<Budgets>, source?: ObjectSource): TaskSpec[] {
  const b = fullBudgets(budgets);
  return TASK_KINDS.map((kind) => ({
    task_id: taskId(object, kind),
    kind,
    object,
    ...kindBudgets(kind, b),
    init_npz: kind === 'reassembly' ? `objects/${object}/${INIT_NPZ}` : null,
    ...(source ? { source } : {}),
  }));
}

/**
 * JSON with objects indented up to `depth` levels and anything deeper on one line, so arrays of
 * Gaussians or cameras stay one item per line.
 */
export function formatJson(value: unknown, depth = 2, indent = ''): string {
  if (depth <= 0 || value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + formatJson(v, depth - 1, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, depth - 1, inner)}`).join(',\n')}\n${indent}}`;
}

export function writeJson(path: string, value: unknown, depth = 2): void {
  writeFileSync(path, `${formatJson(value, depth)}\n`);
}

// A view folder's photos and masks are the tasks tier's (read and written on the lab's pool there).
export { writeViews, type PhotoView } from '../tasks/view-files';

export function writeCameras(objectDir: string, cameras: CamerasFile): void {
  writeJson(join(objectDir, 'cameras.json'), cameras, 3);
}

export function writeFit(objectDir: string, records: readonly GaussianRecord[]): void {
  writeJson(join(objectDir, 'fit.json'), sceneFileJson(records));
}

export function writeAnchors(objectDir: string, anchors: Anchors): void {
  writeJson(join(objectDir, 'anchors.json'), anchors);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float32 nearest `v` that still lies in [lo, hi] (0 < lo <= hi): float32 storage must not
 * push a value that sits on a limit (e.g. a scale clamped to 0.005) outside it. */
export function float32Within(v: number, lo: number, hi: number): number {
  f32[0] = v;
  if (f32[0] < lo) {
    f32[0] = lo;
    if (f32[0] < lo) u32[0] += 1; // next float32 towards +infinity (positive values)
  } else if (f32[0] > hi) {
    f32[0] = hi;
    if (f32[0] > hi) u32[0] -= 1;
  }
  return f32[0];
}

/** init_reassembly.npz (float32 rows, int32 group labels + group_names) and parts_truth.json. */
export function writeReassembly(objectDir: string, records: readonly GaussianRecord[], truth: PartsTruth): void {
  const n = records.length;
  const flat = (get: (r: GaussianRecord) => readonly number[], w: number, lo = -Infinity, hi = Infinity): Float32Array => {
    const out = new Float32Array(n * w);
    records.forEach((r, i) => out.set(get(r).map((v) => (lo > 0 ? float32Within(v, lo, hi) : v)), i * w));
    return out;
  };
  const npz = writeSceneNpz({
    count: n,
    positions: flat((r) => r.pos, 3),
    scales: flat((r) => r.scale, 3, SCALE_MIN, SCALE_MAX),
    quaternions: flat((r) => r.quat, 4),
    colors: flat((r) => r.color, 3),
    opacities: flat((r) => [r.opacity], 1, OPACITY_MIN, OPACITY_MAX),
    groups: records.map((r) => r.group ?? null),
  });
  writeFileSync(join(objectDir, INIT_NPZ), npz);
  writeJson(join(objectDir, 'parts_truth.json'), truth, 3);
}

export function writeSpecs(root: string, object: string, budgets?: Partial<Budgets>, source?: ObjectSource): TaskSpec[] {
  const specs = taskSpecs(object, budgets, source);
  for (const s of specs) writeJson(join(root, `${s.task_id}.json`), s);
  return specs;
}
