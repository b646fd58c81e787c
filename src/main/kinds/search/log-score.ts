// The exact score of a search log without its room: the answer of the log's accepted `stop` call
// checked against the task's answer (100 or 0), and a cache of search task specs by id. Used
// where a model's search run has no lab verdict (study results, the search panel).
// Inputs: a tasks folder; a spec and a trajectory. Output: the spec or null; a score.
// Invariant: the score depends on the logged call and the spec only, never on the end record.
import { SearchTaskSpecSchema, type SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { checkAnswer } from '../../../shared/kinds/search/answers';
import type { Trajectory } from '../../env/trajectory';
import { readSpec } from '../../tasks/load';
import { stopAnswer } from './judge';

/** Caches search task specs of a tasks folder by id (null: not a search task, or unreadable). */
export function searchSpecs(tasksDir: string): (id: string) => SearchTaskSpec | null {
  const cache = new Map<string, SearchTaskSpec | null>();
  return (id) => {
    if (!cache.has(id)) {
      let spec: SearchTaskSpec | null = null;
      if (id.startsWith('search__')) {
        try {
          spec = readSpec(tasksDir, id, SearchTaskSpecSchema);
        } catch {
          spec = null;
        }
      }
      cache.set(id, spec);
    }
    return cache.get(id) ?? null;
  };
}

/** 100 when the stop answer passes the exact checker, else 0 (no answer: 0). */
export function exactSearchScore(spec: SearchTaskSpec, traj: Trajectory): number {
  const a = stopAnswer(traj);
  return a !== null && checkAnswer(spec.question.answer, a) ? 100 : 0;
}
