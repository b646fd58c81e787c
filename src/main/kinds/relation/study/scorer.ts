// The relation kind's Inspect scorer (src/main/kinds/scorer.ts): the share of trials answered
// correctly against the hidden labels, read from the logged answers (./trials.ts).
// Input: a log path, its trajectory and its relation task. Output: accuracy in [0, 1] with each trial.
// Invariant: unanswered trials count as wrong; the end record's claim is never read.
import { relationKind } from '../../../../shared/kinds/relation/kind';
import type { KindScorer } from '../../scorer';
import type { RelationTask } from '../load';
import { trialsOfLog } from './trials';

export const relationScorer: KindScorer = {
  name: 'relation_accuracy',
  description: 'relation: share of trials answered correctly against the hidden labels (unanswered trials count as wrong)',
  family: relationKind.family,
  async score({ path, traj, task }) {
    const rows = trialsOfLog(path, task as RelationTask, 'model', traj.header?.player ?? 'unknown');
    const correct = rows.filter((r) => r.correct).length;
    return {
      value: rows.length ? correct / rows.length : 0,
      answer: rows.map((r) => r.answer ?? '-').join(','),
      explanation: `${correct} of ${rows.length} trials correct`,
      metadata: { trials: rows.map((r) => ({ trial: r.trial, truth: r.truth, answer: r.answer, correct: r.correct, rt_ms: r.rtMs })) },
    };
  },
};
