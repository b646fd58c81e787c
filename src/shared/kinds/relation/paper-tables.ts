// The spatial-relation (SpaRRTa-style) tables of the paper (../shared/seeds/sparrta-eval.txt;
// docs/STUDIES.md "The paper's tables"): accuracy per environment x ego/allo with intervals,
// reaction times, the confusion matrix, and the probe accuracies SpaRRTa reports (./paper.ts,
// cited) beside the lab's people and models.
// Input: trial rows of the study (one per trial; a model's runs told apart by `cluster`).
// Output: PaperTable[]. Invariants: attention checks never enter accuracy; a timed-out or
// unanswered trial counts as wrong and has no reaction time; intervals resample participants
// or runs (paperInterval), never trials.
import { quantileSorted } from '../../analysis/bootstrap';
import { ciOf, numCell, paperInterval, type PaperTable } from '../../analysis/paper-table';
import { RELATION_CLASSES, RELATION_TASKS, type RelationClass, type RelationTask } from './labels';
import { PAPER_FIGURES, PAPER_PROBES, PAPER_SOURCE } from './paper';

export interface PaperTrial {
  /** People, or the model's canonical name. */
  player: string;
  who: 'human' | 'model';
  /** The participant, or the model's run: what the interval resamples. */
  cluster: string;
  environment: string;
  task: RelationTask;
  truth: RelationClass;
  answer: RelationClass | null;
  /** Reaction time (a person: onset at paint to response; a model: its latency before the call), ms. */
  rtMs: number | null;
  catch: boolean;
  timedOut: boolean;
}

const CLUSTERS = 'clustered percentile bootstrap, 2000 resamples of whole participants (People) or whole runs (a model)';
const TASK_NAME: Record<RelationTask, string> = { ego: 'ego', allo: 'allo' };

function playersOf(rows: readonly PaperTrial[]): string[] {
  const models = [...new Set(rows.filter((r) => r.who === 'model').map((r) => r.player))].sort();
  return [...new Set(rows.filter((r) => r.who === 'human').map((r) => r.player)), ...models];
}

const acc = (rows: readonly PaperTrial[], key: string): string =>
  rows.length ? ciOf(paperInterval(rows.map((r) => ({ cluster: r.cluster, value: r.answer === r.truth ? 100 : 0 })), key)) : '–';

export function relationPaperTables(all: readonly PaperTrial[]): PaperTable[] {
  const scored = all.filter((r) => !r.catch);
  if (!scored.length) return [];
  const players = playersOf(scored);
  const envs = [...new Set(scored.map((r) => r.environment))].sort();
  const cols = [...envs, 'all'].flatMap((e) => RELATION_TASKS.filter((t) => scored.some((r) => r.task === t && (e === 'all' || r.environment === e))).map((t) => ({ e, t })));
  const accuracy: PaperTable = {
    id: 'relation-accuracy',
    title: 'Spatial relations: accuracy per environment and perspective (ego / allo)',
    unit: 'per cent of trials answered correctly (chance 25)',
    n: 'trials per cell (the n column counts the row\'s trials)',
    interval: `95% ${CLUSTERS}`,
    statistic: 'mean over trials (attention checks left out)',
    columns: ['Player', ...cols.map((c) => `${c.e} ${TASK_NAME[c.t]}`), 'n', 'k'],
    rows: players.map((p) => {
      const mine = scored.filter((r) => r.player === p);
      return [p, ...cols.map((c) => acc(mine.filter((r) => r.task === c.t && (c.e === 'all' || r.environment === c.e)), `relation-accuracy\u0000${p}\u0000${c.e}\u0000${c.t}`)), String(mine.length), String(new Set(mine.map((r) => r.cluster)).size)];
    }),
  };
  const rtRows: string[][] = [];
  for (const p of players) {
    for (const t of RELATION_TASKS) {
      const rts = scored.filter((r) => r.player === p && r.task === t && !r.timedOut && r.answer !== null && r.rtMs !== null).map((r) => (r.rtMs as number) / 1000).sort((a, b) => a - b);
      if (!rts.length) continue;
      rtRows.push([p, TASK_NAME[t], numCell(quantileSorted(rts, 0.25), 2), numCell(quantileSorted(rts, 0.5), 2), numCell(quantileSorted(rts, 0.75), 2), String(rts.length)]);
    }
  }
  const rt: PaperTable = {
    id: 'relation-reaction-times',
    title: 'Spatial relations: reaction times',
    unit: 'seconds; a person: from the image on screen (first paint) to the answer; a model: its latency from the observation to its answer call',
    n: 'answered trials (timed-out and unanswered ones have no reaction time)',
    interval: 'none; quartiles shown',
    statistic: 'median with the first and third quartiles (linear interpolation)',
    columns: ['Player', 'Perspective', 'Q1', 'Median', 'Q3', 'n'],
    rows: rtRows,
  };
  const confRows: string[][] = [];
  for (const p of players) {
    for (const t of RELATION_TASKS) {
      const mine = scored.filter((r) => r.player === p && r.task === t);
      if (!mine.length) continue;
      for (const truth of RELATION_CLASSES) {
        confRows.push([p, TASK_NAME[t], truth, ...[...RELATION_CLASSES, null].map((a) => String(mine.filter((r) => r.truth === truth && r.answer === a).length))]);
      }
    }
  }
  const confusion: PaperTable = {
    id: 'relation-confusion',
    title: 'Spatial relations: confusion matrix (rows: the true relation; columns: the answer)',
    unit: 'trials',
    n: 'trials per player and perspective (the row sums)',
    interval: 'none',
    statistic: 'counts',
    columns: ['Player', 'Perspective', 'Truth', ...RELATION_CLASSES.map((c) => `answered ${c}`), 'no answer'],
    rows: confRows,
  };
  const probeModels = [...new Set(PAPER_FIGURES.map((f) => f.model))];
  const probeCols = [...envs.map((e) => ({ e, t: 'ego' as const })), { e: 'mean', t: 'allo' as const }];
  const paperCell = (model: string, probe: string, e: string, t: RelationTask): string => numCell(PAPER_FIGURES.find((f) => f.model === model && f.probe === probe && f.environment === e && f.task === t)?.accuracy ?? null);
  const probes: PaperTable = {
    id: 'relation-probes',
    title: 'Spatial relations: the lab\'s people and models beside the probe accuracies SpaRRTa reports (cited)',
    unit: 'per cent correct',
    n: 'the lab\'s rows: trials as in relation-accuracy; the cited rows: the paper\'s test sets',
    interval: 'none here (the lab\'s intervals are in relation-accuracy)',
    statistic: 'the lab: mean over trials; cited: probe test accuracy averaged over 3 triples and 2 seeds (allo: also over the five environments)',
    notes: [`Cited rows (marked "cited"): ${PAPER_SOURCE}. Not lab results: probes trained per triple on frozen features; the lab's people and models answer without training.`],
    columns: ['Player', 'Source', ...probeCols.map((c) => `${c.e} ${TASK_NAME[c.t]}`)],
    rows: [
      ...players.map((p) => {
        const mine = scored.filter((r) => r.player === p);
        return [p, 'this study', ...probeCols.map((c) => {
          const of = mine.filter((r) => r.task === c.t && (c.e === 'mean' || r.environment === c.e));
          return of.length ? numCell((100 * of.filter((r) => r.answer === r.truth).length) / of.length) : '–';
        })];
      }),
      ...probeModels.flatMap((m) => PAPER_PROBES.map((probe) => [`${m} (${probe} probe)`, 'cited', ...probeCols.map((c) => paperCell(m, probe, c.e, c.t))])),
    ],
  };
  return [accuracy, rt, confusion, probes];
}
