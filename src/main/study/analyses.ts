// Builds the analysis rows (src/shared/analysis/report.ts) from trajectory logs: a study's
// participants and models, and any `splatlab eval` results folder. Per episode: the final score
// and the hidden score after each call (from the log), the object's source (procedural,
// synthetic, photographed), the mirror test (the final scene and its mirror across the task's
// ceiling plane, where the reference fit loses most, rendered from the task's held-out cameras,
// silhouettes against the held-out masks; the fit's own drop beside it), the
// reassembly heading errors (against parts_truth.json), cost, time, model and effort (from the
// .meta.json beside a model's log). Inputs: log sources, tasks folder, a renderer.
// Invariant: experimenter-side only; held-out views are read here and never leave as images.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { boxCentreXY, ceilingPlane, mirrorAcross, mirrorResult, MIRROR_PLANE_ANGLES, type MirrorPlane } from '../../shared/analysis/mirror';
import { objectSourceOf, type ObjectSource } from '../../shared/analysis/object-source';
import { scoreCurve } from '../../shared/analysis/curves';
import type { AnalysisEpisode } from '../../shared/analysis/report';
import { partHeadingError, PartsTruthSchema, type PartsTruth } from '../../shared/authoring/scramble/truth';
import { fromCompactRecord, packRecords, type GaussianRecord } from '../../shared/scene/records';
import { iou, maskFromCoverage } from '../../shared/metrics/mask';
import type { Camera, RenderOutput } from '../../shared/raster/types';
import type { Splats } from '../../shared/scene/splats';
import { readTrajectory, type Trajectory } from '../env/trajectory';
import { episodeTimes } from '../../shared/env/person-time';
import { loadTask, readFit, type LoadedTask } from '../tasks/load';
import { studyResults } from './results';
import { clusterOf, statisticRows } from '../../shared/study/results';
import type { StudyStore } from './store';
import { readMeta, metaPathOf } from '../models/meta';
import { partNames, type NamedPrimitive } from '../../shared/analysis/part-names';
import { runScore, type RunOf } from './run-score';
import type { KindReportLog } from '../kinds/kind';

export interface LogSource {
  path: string;
  kind: 'human' | 'model';
  /** 'participants' for people; for models the folder name (the meta's player name wins). */
  group: string;
  cluster: string;
  practice: boolean;
  /** An imported model run of a study: scored by the one run score (its verdict), never its file. */
  run?: RunOf;
}

export type RenderFn = (splats: Splats, cameras: Camera[]) => Promise<RenderOutput[]>;

function finalRecords(t: Trajectory, task: LoadedTask): GaussianRecord[] {
  for (let i = t.steps.length - 1; i >= 0; i--) {
    const state = t.steps[i].state;
    if (state) return state.map(fromCompactRecord);
  }
  return (task.init ?? []).map((r) => ({ ...r }));
}

async function heldoutIous(records: GaussianRecord[], task: LoadedTask, render: RenderFn): Promise<number[]> {
  const views = task.heldout;
  const renders = await render(packRecords(records), views.map((v) => v.camera));
  return renders.map((r, i) => iou(maskFromCoverage(r.alpha), maskFromCoverage(views[i].mask)));
}

function partsTruth(task: LoadedTask, cache: Map<string, PartsTruth | null>): PartsTruth | null {
  if (!cache.has(task.dir)) {
    const path = join(task.dir, 'parts_truth.json');
    const parsed = existsSync(path) ? PartsTruthSchema.safeParse(JSON.parse(readFileSync(path, 'utf8'))) : null;
    cache.set(task.dir, parsed?.success ? parsed.data : null);
  }
  return cache.get(task.dir) ?? null;
}

/** The object's authored primitives with their groups (object.json), for naming parts; [] without. */
function primitivesOf(dir: string): NamedPrimitive[] {
  const path = join(dir, 'object.json');
  if (!existsSync(path)) return [];
  try {
    const parts = (JSON.parse(readFileSync(path, 'utf8')) as { parts?: unknown }).parts;
    if (!Array.isArray(parts)) return [];
    return parts.flatMap((p: { pos?: unknown; group?: unknown }) => (Array.isArray(p.pos) && p.pos.length === 3 && p.pos.every((v) => typeof v === 'number')
      ? [{ pos: p.pos as [number, number, number], group: typeof p.group === 'string' ? p.group : undefined }] : []));
  } catch {
    return [];
  }
}

function headingOf(truth: PartsTruth | null, final: GaussianRecord[], dir: string): Pick<AnalysisEpisode, 'headingErrors' | 'headingParts' | 'headingNames'> {
  if (!truth) return { headingErrors: null, headingParts: null, headingNames: null };
  const errors = partHeadingError(truth, final);
  const names = partNames(truth.parts.map((p) => ({ label: p.label, positions: p.true_positions })), primitivesOf(dir));
  return { headingErrors: errors.map((e) => e.headingErrorDeg), headingParts: errors.map((e) => e.label), headingNames: errors.map((e) => names.get(e.label) ?? e.label) };
}

/** The task's object source: its spec's, else from build.json's `source` tag (tasks built before specs carried one). */
export function taskSource(task: LoadedTask): ObjectSource {
  if (task.spec.source) return task.spec.source;
  const path = join(task.dir, 'build.json');
  try {
    const tag = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { source?: unknown }).source : undefined;
    return objectSourceOf(typeof tag === 'string' ? tag : undefined);
  } catch {
    return 'procedural';
  }
}

export interface MirrorCeiling {
  plane: MirrorPlane;
  /** The reference fit's held-out IoU, mirrored IoU and drop across that plane. */
  fit: ReturnType<typeof mirrorResult>;
}

/** The vertical plane through the fit's centre where the reference fit loses the most held-out overlap. */
export async function mirrorCeiling(task: LoadedTask, render: RenderFn): Promise<MirrorCeiling> {
  const fit = readFit(task.dir, `mirror ceiling of ${task.spec.task_id}`);
  const centre = boxCentreXY(fit);
  const own = await heldoutIous(fit, task, render);
  const results = [];
  for (const angleDeg of MIRROR_PLANE_ANGLES) results.push(mirrorResult(own, await heldoutIous(mirrorAcross(fit, { ...centre, angleDeg }), task, render)));
  const best = ceilingPlane(centre, results);
  return { plane: best.plane, fit: best.result };
}

/** Active seconds of a finished log (the one clock: pauses and downtime left out), or null. */
const activeSeconds = (t: Trajectory): number | null => {
  const started = t.header?.started;
  if (!started || !t.end || !Number.isFinite(Date.parse(started)) || !Number.isFinite(Date.parse(t.end.t))) return null;
  return episodeTimes({ started, steps: t.steps, times: t.times, end: t.end }).activeMs / 1000;
};

/** Long analyses report progress per episode and stop between episodes when the signal aborts. */
export interface AnalysisProgress {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function analysisEpisodes(sources: readonly LogSource[], tasksDir: string, render: RenderFn | null, progress: AnalysisProgress = {}): Promise<AnalysisEpisode[]> {
  const tasks = new Map<string, LoadedTask | null>();
  const truths = new Map<string, PartsTruth | null>();
  const ceilings = new Map<string, MirrorCeiling | null>();
  const out: AnalysisEpisode[] = [];
  let done = 0;
  for (const src of sources) {
    if (progress.signal?.aborted) throw new Error('cancelled');
    progress.onProgress?.(done++, sources.length);
    const t = readTrajectory(src.path);
    const taskId = t.header?.task;
    if (!taskId) continue;
    if (!tasks.has(taskId)) tasks.set(taskId, await loadTask(taskId, { tasksDir }).catch(() => null));
    const task = tasks.get(taskId);
    if (!task) continue;
    const meta = src.kind === 'model' ? readMeta(metaPathOf(src.path)) : null;
    const calls = t.end?.calls_used ?? Math.max(0, ...t.steps.map((s) => s.step));
    const kind = task.spec.kind;
    const complete = t.end !== null;
    const final = finalRecords(t, task);
    let mirror: AnalysisEpisode['mirror'] = null;
    if (render && complete && kind !== 'reassembly' && task.heldout.length) {
      if (!ceilings.has(task.dir)) ceilings.set(task.dir, await mirrorCeiling(task, render).catch(() => null));
      const ceiling = ceilings.get(task.dir) ?? null;
      // Without a readable fit there is no ceiling: the plane x = 0 through the origin, as before.
      const plane: MirrorPlane = ceiling?.plane ?? { x: 0, y: 0, angleDeg: 0 };
      const m = mirrorResult(await heldoutIous(final, task, render), await heldoutIous(mirrorAcross(final, plane), task, render));
      mirror = { ...m, planeDeg: plane.angleDeg, ...(ceiling ? { ceiling: ceiling.fit.drop } : {}) };
    }
    const truth = kind === 'reassembly' && complete ? partsTruth(task, truths) : null;
    const rs = src.run ? runScore(t, src.run) : null;
    out.push({
      group: src.kind === 'human' ? 'participants' : (meta?.player ?? src.group),
      kind: src.kind,
      cluster: meta ? `run ${meta.run}` : src.cluster,
      taskId,
      object: task.spec.object,
      source: taskSource(task),
      taskKind: kind,
      practice: src.practice,
      complete,
      score: rs ? rs.score : (t.end?.score ?? null),
      curve: scoreCurve(t.steps.map((s, i) => ({ step: s.step, score: rs ? rs.steps[i] : (s.hidden?.score ?? null) })), calls),
      mirror,
      ...headingOf(truth, final, task.dir),
      costUsd: meta?.cost_usd ?? null,
      // The one clock for people and models alike: active time up to the ending call (issue 24).
      seconds: activeSeconds(t),
      model: meta ? `${meta.provider}:${meta.model}` : null,
      effort: meta ? (meta.effort ?? 'default') : null,
    });
  }
  progress.onProgress?.(done, sources.length);
  return out;
}

/**
 * The sources as a kind's report reads them (MainKindModule.report): a model's group is its meta's
 * player name (the folder's name without one) and its cluster its run, as in analysisEpisodes.
 */
export function reportLogs(sources: readonly LogSource[]): KindReportLog[] {
  return sources.map((src) => {
    const meta = src.kind === 'model' ? readMeta(metaPathOf(src.path)) : null;
    return { path: src.path, kind: src.kind, group: src.kind === 'human' ? 'participants' : (meta?.player ?? src.group), cluster: meta ? `run ${meta.run}` : src.cluster, practice: src.practice };
  });
}

/** Model logs of an eval results folder: <results>/<model__settings>/<task>__rN.jsonl. */
export function resultsFolderSources(dir: string): LogSource[] {
  if (!existsSync(dir)) return [];
  const out: LogSource[] = [];
  for (const m of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'runs').sort((a, b) => a.name.localeCompare(b.name))) {
    for (const f of readdirSync(join(dir, m.name)).filter((n) => n.endsWith('.jsonl')).sort()) {
      out.push({ path: join(dir, m.name, f), kind: 'model', group: m.name, cluster: f, practice: false });
    }
  }
  return out;
}

/**
 * A study's played episodes (participants and models/) as log sources; with `statisticsOnly`
 * only those that enter the statistics (scored, finished, graded, not excluded: the paper's).
 */
export function studySources(store: StudyStore, studyId: string, opts: { tasksDir?: string; statisticsOnly?: boolean } = {}): LogSource[] {
  const verdicts = new Map(store.modelLogs(studyId).map((m) => [m.rel, m.verdict]));
  const rows = studyResults(store, studyId, opts.tasksDir);
  return (opts.statisticsOnly ? statisticRows(rows) : rows).map((r) => ({
    path: store.resolveIn(studyId, r.log),
    kind: r.kind,
    group: r.source,
    // A model's unit is its run, as in the summary (not the model as one cluster).
    cluster: r.kind === 'model' ? clusterOf(r) : r.participant,
    practice: r.practice,
    run: r.kind === 'model' ? { kind: 'model', verdict: verdicts.get(r.log) ?? null } : { kind: 'human' },
  }));
}
