// The relation kind's part of `splatlab report` (MainKindModule.report; docs/AGENTS.md "Analyses",
// docs/RELATION.md): per player group (participants, each model with its settings) the accuracy
// over all trials, per task (egocentric, allocentric), per environment and per triple with 95%
// intervals, the chance line, median reaction times and the confusion matrices
// (src/shared/kinds/relation/results.ts, as Results shows a study's), and every trial.
// Input: the report's logs and the tasks folder. Output: KindReport or null.
// Invariant: only logs of relation tasks, practice left out; answers are read from the logged
// `answer` calls and scored against the hidden labels, never the end record; catch trials are
// listed but stay out of the accuracies.
import { toCsv } from '../../../shared/analysis/csv';
import type { RelationTrialRow } from '../../../shared/kinds/relation/api';
import { CHANCE, summariseRelation, type AccuracyCell, type RelationSummary } from '../../../shared/kinds/relation/results';
import { RELATION_TASK_PREFIX } from '../../../shared/kinds/relation/task';
import { readTrajectory } from '../../env/trajectory';
import { readSpecHead } from '../../tasks/load';
import type { KindReport, KindReportLog } from '../kind';
import { loadRelationTask, type RelationTask } from './load';
import { relationCsv, trialsOfTrajectory } from './log-trials';

interface GroupSummary {
  group: string;
  who: 'human' | 'model';
  summary: RelationSummary;
}

function accuracyCsv(groups: readonly GroupSummary[]): string {
  const rows = groups.flatMap((g) => g.summary.cells.map((c) => ({ group: g.group, c })));
  return toCsv<{ group: string; c: AccuracyCell }>([
    { name: 'group', value: (r) => r.group },
    { name: 'who', value: (r) => r.c.who },
    { name: 'cell', value: (r) => r.c.group },
    { name: 'n_trials', value: (r) => r.c.n },
    { name: 'correct', value: (r) => r.c.correct },
    { name: 'accuracy', value: (r) => r.c.accuracy },
    { name: 'low', value: (r) => r.c.low },
    { name: 'high', value: (r) => r.c.high },
    { name: 'median_rt_ms', value: (r) => r.c.medianRtMs },
    { name: 'chance', value: () => CHANCE },
  ], rows);
}

export function relationReport(logs: readonly KindReportLog[], tasksDir: string): KindReport | null {
  const tasks = new Map<string, RelationTask | null>();
  const taskOf = (id: string): RelationTask | null => {
    if (!tasks.has(id)) {
      let t: RelationTask | null = null;
      try {
        t = id.startsWith(RELATION_TASK_PREFIX) ? loadRelationTask(tasksDir, readSpecHead(tasksDir, id)) : null;
      } catch {
        t = null;
      }
      tasks.set(id, t);
    }
    return tasks.get(id) ?? null;
  };
  const byGroup = new Map<string, { who: 'human' | 'model'; rows: RelationTrialRow[] }>();
  let episodes = 0;
  for (const log of logs) {
    if (log.practice) continue;
    const traj = readTrajectory(log.path);
    const task = traj.header?.task ? taskOf(traj.header.task) : null;
    if (!task || task.spec.practice || !traj.end) continue;
    // A model's unit is its run; a participant is one answerer over all their blocks.
    const answerer = log.kind === 'model' ? `${log.group}#${log.cluster}` : log.cluster;
    const mine = byGroup.get(log.group) ?? { who: log.kind, rows: [] };
    mine.rows.push(...trialsOfTrajectory(traj, task, log.kind, answerer));
    byGroup.set(log.group, mine);
    episodes += 1;
  }
  if (!episodes) return null;
  const groups: GroupSummary[] = [...byGroup].sort(([a, x], [b, y]) => (x.who === y.who ? a.localeCompare(b) : x.who === 'human' ? -1 : 1))
    .map(([group, g]) => ({ group, who: g.who, summary: summariseRelation(g.rows.filter((r) => !r.catch)) }));
  return {
    family: 'relation',
    episodes,
    metrics: { chance: CHANCE, groups },
    tables: [
      { id: 'relation-accuracy', title: 'Relation: accuracy (share of trials correct) per group, overall and per task, environment and triple, 95% CI, median reaction time (ms); n trials, chance 0.25', csv: accuracyCsv(groups) },
      { id: 'relation-trials', title: 'Relation: every trial', csv: relationCsv([...byGroup.values()].flatMap((g) => g.rows)) },
    ],
  };
}
