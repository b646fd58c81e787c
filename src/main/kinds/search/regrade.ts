// Regrading of a search trajectory (docs/DESIGN.md sections 11 and 14): the logged calls run
// through fresh pure rules; every step's text and hidden part and the end record are recomputed
// and compared with the log. Input: a loaded SearchTask and a parsed trajectory. Output: the
// recomputed outcome and one line per disagreement (none for a valid log).
import { searchRules } from '../../../shared/kinds/search/kind';
import { hiddenAt, searchOutcome, type SearchOutcome } from '../../../shared/kinds/search/outcome';
import type { Trajectory } from '../../env/trajectory';
import type { SearchTask } from './env';

export interface SearchRegrade {
  outcome: SearchOutcome;
  problems: string[];
}

const HIDDEN_KEYS = ['distance', 'answerable', 'pose', 'collided'] as const;

export function regradeSearch(task: SearchTask, log: Trajectory): SearchRegrade {
  const rules = searchRules(task.spec, task.scene.collider);
  const problems: string[] = [];
  for (const rec of log.steps) {
    let collided = false;
    let text = rules.firstObservation();
    if (rec.step > 0) {
      const before = rules.collisions();
      const r = rules.step({ tool: rec.tool, args: rec.args });
      text = `${r.body}\n${r.footer}`;
      collided = rules.collisions() > before;
    }
    if (text !== rec.text) problems.push(`step ${rec.step}: the text differs from the replay`);
    const pose = rules.currentPose();
    const hidden = { ...hiddenAt(task.spec, task.scene.visibility, pose), pose, collided };
    const logged = (rec as { search?: Record<string, unknown> }).search;
    for (const k of HIDDEN_KEYS) {
      if (JSON.stringify(logged?.[k]) !== JSON.stringify(hidden[k])) problems.push(`step ${rec.step}: hidden ${k} ${JSON.stringify(logged?.[k])} != ${JSON.stringify(hidden[k])}`);
    }
  }
  const outcome = searchOutcome(task.spec, task.scene.visibility, rules);
  if (log.end) {
    const end = log.end as Record<string, unknown>;
    for (const [k, v] of Object.entries(outcome)) {
      // Logs written before the checker said what it read (or which scorer scores it) lack these keys.
      if ((k === 'answer_read' || k === 'scored_by') && !(k in end)) continue;
      if (JSON.stringify(end[k]) !== JSON.stringify(v)) problems.push(`end: ${k} ${JSON.stringify(end[k])} != ${JSON.stringify(v)}`);
    }
  } else if (rules.done) problems.push('the replay ended but the log has no end record');
  return { outcome, problems };
}
