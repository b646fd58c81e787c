// A study's search episodes scored for Results (LabApi search.results) and the export archive:
// participants' scored episodes (practice left out; excluded ones and those of withdrawn
// participants carry the reason and stay out of the aggregates) and imported model runs,
// each read back from its log with its rater and judge marks; optionally the baseline players
// played on the study's search tasks through the pure rules. Also the free-text answers still to
// be rated. Inputs: a StudyStore, a study id, the tasks folder. Outputs: SearchEpisodeRow records.
// Invariant: the answer is taken from the logged `stop` call and checked again here, so a
// number never depends on what a log's end record claims about correctness.
import { existsSync } from 'node:fs';
import type { PendingRating } from '../../../../shared/kinds/search/api-scores';
import type { SearchEpisodeRow } from '../../../../shared/kinds/search/scores';
import type { SearchTaskSpec } from '../../../../shared/kinds/search/kind';
import { BASELINES } from '../../../../shared/kinds/search/players';
import { readTrajectory } from '../../../env/trajectory';
import { stopAnswer } from '../judge';
import { searchSpecs } from '../log-score';
import type { StudyStore } from '../../../study/store';
import { exclusionOf } from '../../../study/results';
import { readJudgements, readRatings } from '../judge-store';
import { endNumbers, searchRow } from '../log-row';
import type { LoadedCapture } from '../capture-scene';
import { loadTaskScene, type RoomScene } from '../scene';
import { baselineEpisode } from '../task-set';
import { fnv1a } from '../../../../shared/math/hash';

/** A search log of a study: where it lies and who played it. */
export interface SearchLogRef {
  rel: string;
  path: string;
  who: 'human' | 'model';
  source: string;
  answerer: string;
  spec: SearchTaskSpec;
  /** Why the episode is out of the statistics, or null. */
  excluded: string | null;
}

/** The search logs of a study: scored (not practice), present on disk, with any exclusion. */
export function studySearchLogs(store: StudyStore, studyId: string, tasksDir: string): SearchLogRef[] {
  const specOf = searchSpecs(tasksDir);
  const out: SearchLogRef[] = [];
  for (const p of store.participants(studyId)) {
    for (const ep of p.episodes) {
      const spec = ep.practice ? null : specOf(ep.taskId);
      const path = store.resolveIn(studyId, ep.log);
      if (spec && existsSync(path)) out.push({ rel: ep.log, path, who: 'human', source: 'humans', answerer: p.id, spec, excluded: exclusionOf(p, ep) });
    }
  }
  for (const m of store.modelLogs(studyId)) {
    const spec = specOf(m.taskId);
    if (spec) out.push({ rel: m.rel, path: store.resolveIn(studyId, m.rel), who: 'model', source: m.model, answerer: `${m.model}#r${m.run}`, spec, excluded: null });
  }
  return out;
}

/** The scored rows of a study's finished search logs (an unfinished log has no end and is left out). */
export function studySearchRows(store: StudyStore, studyId: string, tasksDir: string): SearchEpisodeRow[] {
  const rows: SearchEpisodeRow[] = [];
  for (const ref of studySearchLogs(store, studyId, tasksDir)) {
    const traj = readTrajectory(ref.path);
    const end = endNumbers(traj);
    if (!end) continue;
    rows.push(searchRow(ref, stopAnswer(traj), end, { judges: readJudgements(ref.path), raters: readRatings(ref.path) }));
  }
  return rows;
}

/** The baseline players on the given search tasks (blind prior learnt from the others, leave one out). */
export async function baselineRows(tasksDir: string, specs: readonly SearchTaskSpec[], seed = 0): Promise<SearchEpisodeRow[]> {
  // The tasks' own scene loader (captured and annotated rooms included), each room read once.
  const cache = new Map<string, RoomScene | LoadedCapture>();
  const rows: SearchEpisodeRow[] = [];
  for (const [i, spec] of specs.entries()) {
    const scene = await loadTaskScene(tasksDir, spec, cache);
    for (const player of BASELINES) {
      const o = baselineEpisode(player, specs, i, scene, seed);
      const ref = { rel: `baseline:${player}/${spec.task_id}`, who: 'baseline' as const, source: player, answerer: player, spec, excluded: null };
      rows.push(searchRow(ref, o.answer, { success: o.success, steps: o.steps, path_length: o.path_length, collision: o.collision }, { judges: [], raters: [] }));
    }
  }
  return rows;
}

/** Stable pseudo-random order key of a log (FNV-1a), so humans and models interleave in the rater list. */
function shuffleKey(s: string): number {
  return fnv1a(s);
}

/** Free-text answers without a rater mark, shuffled by a fixed key; nothing says who answered. */
export function pendingRatings(store: StudyStore, studyId: string, tasksDir: string): PendingRating[] {
  const out: PendingRating[] = [];
  for (const ref of studySearchLogs(store, studyId, tasksDir)) {
    const a = ref.spec.question.answer;
    if (a.type !== 'text' || ref.excluded !== null || readRatings(ref.path).length > 0) continue;
    const given = stopAnswer(readTrajectory(ref.path));
    if (given === null) continue;
    out.push({ ref: ref.rel, question: ref.spec.question.text, correct: a.correct, synonyms: a.synonyms, given });
  }
  return out.sort((x, y) => shuffleKey(x.ref) - shuffleKey(y.ref) || x.ref.localeCompare(y.ref));
}
