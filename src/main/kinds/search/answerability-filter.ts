// E3VS's answerability filter (docs/TASKS.md, "E3VS's quantities and the lab's"): every task's
// question is put to a runner blind (the question alone) and from the start view, each answer is
// marked by the E3VS judge (the pinned prompt with the start and goal views), and a task either
// answer marks 3 or more on is excluded: its file is removed from the tasks folder and listed with
// its marks in search/answerability-filter.json; every kept task records its marks in its spec
// (`answerability_filter`). Inputs: a tasks folder, loaded tasks, two client factories (any
// runner). Output: kept and excluded ids. Invariant: nothing is written until every task is
// judged (a cancelled or failed run leaves the folder as it was).
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AnswerabilityFilterSchema, SearchTaskSpecSchema, type AnswerabilityFilter, type SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { OBS_SIZE, type AsyncViewRenderer } from '../../../shared/kinds/search/render';
import { writeFileAtomic } from '../../io/write-atomic';
import { JUDGE_HASH, type JudgeClient } from './judge';
import type { RoomScene } from './scene';
import { judgedStaticAnswer, startAndGoal, type StaticClient } from './static-baseline';
import { checkNotBuiltIn } from '../../tasks/paths';

/** E3VS drops a question a blind or start-view model answers with a judge score of 3 or more. */
export const FILTER_THRESHOLD = 3;
export const FILTER_RECORD = 'search/answerability-filter.json';

export interface FilterOptions {
  model: string;
  judge: string;
  renderer?: AsyncViewRenderer;
  size?: number;
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
  now?: () => Date;
}

export interface FilterResult {
  kept: string[];
  excluded: { task_id: string; blind: AnswerabilityFilter['blind']; start_view: AnswerabilityFilter['start_view'] }[];
}

export async function filterAnswerability(
  tasksDir: string, all: readonly { spec: SearchTaskSpec; scene: RoomScene }[], makeAnswerer: () => StaticClient, makeJudge: () => JudgeClient, o: FilterOptions,
): Promise<FilterResult> {
  // The filter rewrites and removes task files: the built-in set's are refused in a lab home's layered folder.
  checkNotBuiltIn(tasksDir, all.map((t) => t.spec.task_id));
  const size = o.size ?? OBS_SIZE;
  const at = (o.now ?? (() => new Date()))().toISOString();
  const records: { spec: SearchTaskSpec; rec: AnswerabilityFilter }[] = [];
  for (const [i, { spec, scene }] of all.entries()) {
    if (o.signal?.aborted) throw new Error(`answerability filter cancelled after ${i} of ${all.length} tasks (nothing written)`);
    // The judged path of the static baselines: each answer marked from the start and goal views.
    const views = await startAndGoal(spec, scene, o.renderer, size);
    const blind = await judgedStaticAnswer(makeAnswerer(), makeJudge(), o.judge, spec, 'blind', views);
    const seen = await judgedStaticAnswer(makeAnswerer(), makeJudge(), o.judge, spec, 'start-view', views);
    const rec = AnswerabilityFilterSchema.parse({
      model: o.model, judge: o.judge, prompt_hash: JUDGE_HASH, threshold: FILTER_THRESHOLD,
      blind, start_view: seen, ...(size === OBS_SIZE ? {} : { image_size: size }), at,
    });
    records.push({ spec, rec });
    o.onProgress?.(`${spec.task_id}: blind ${rec.blind.mark ?? '-'}, start view ${rec.start_view.mark ?? '-'}`);
  }
  const out: FilterResult = { kept: [], excluded: [] };
  for (const { spec, rec } of records) {
    const hit = [rec.blind.mark, rec.start_view.mark].some((m) => m !== null && m >= FILTER_THRESHOLD);
    const path = join(tasksDir, `${spec.task_id}.json`);
    if (hit) {
      out.excluded.push({ task_id: spec.task_id, blind: rec.blind, start_view: rec.start_view });
      rmSync(path);
    } else {
      out.kept.push(spec.task_id);
      writeFileAtomic(path, `${JSON.stringify(SearchTaskSpecSchema.parse({ ...spec, answerability_filter: rec }), null, 1)}\n`);
    }
  }
  mkdirSync(dirname(join(tasksDir, FILTER_RECORD)), { recursive: true });
  writeFileAtomic(join(tasksDir, FILTER_RECORD), `${JSON.stringify({ model: o.model, judge: o.judge, prompt_hash: JUDGE_HASH, threshold: FILTER_THRESHOLD, at, kept: out.kept.length, excluded: out.excluded }, null, 1)}\n`);
  return out;
}
