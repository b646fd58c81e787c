// Trial blocks for people and models on the same trials (issue 25): robust reading of model
// answers (unparseable ones kept and counted); `relation block` draws N per environment x task x
// class cell from a split, adds attention checks and a practice block from another split, and
// refuses a cell short of N; a block episode shows its trials in a seeded per-participant order
// recorded in the log, resumes in that order, scores attention checks apart, keeps timed-out
// trials as wrong and records the server's receipt time beside the screen's reaction time.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetConfigSchema } from '../../../../src/shared/kinds/relation/dataset';
import { parseRelationText } from '../../../../src/shared/kinds/relation/answer-parse';
import { RelationEndSchema } from '../../../../src/shared/kinds/relation/kind';
import { trialOrder } from '../../../../src/shared/kinds/relation/task';
import type { KindEnvOptions } from '../../../../src/main/kinds/kind';
import { writeRelationBlock } from '../../../../src/main/kinds/relation/block';
import { generateDataset } from '../../../../src/main/kinds/relation/generate';
import { loadRelationTask, relationMain } from '../../../../src/main/kinds/relation/kind';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { trialsOfLog } from '../../../../src/main/kinds/relation/study/trials';

const root = mkdtempSync(join(tmpdir(), 'relation-block-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dataset = join(root, 'ds');
const tasksDir = join(root, 'tasks');
const opts = (player: string, log?: string): KindEnvOptions => ({ grader: null as never, protocol: 'agent', player, ...(log ? { log } : {}) });

describe('reading a model\'s relation answer', () => {
  it('finds the one class a text names, the final one when it says so, and nothing in a text that names two', () => {
    expect(parseRelationText('left')).toBe('left');
    expect(parseRelationText('Left.')).toBe('left');
    expect(parseRelationText('The rock is to the left of the tree')).toBe('left');
    expect(parseRelationText('**Answer:** right')).toBe('right');
    expect(parseRelationText('It could be left or front... final answer: front')).toBe('front');
    expect(parseRelationText('in front of the cone')).toBe('front');
    expect(parseRelationText('left or right, hard to say')).toBeNull();
    expect(parseRelationText('up')).toBeNull();
    expect(parseRelationText('leftish')).toBeNull();
  });
});

describe('relation blocks', () => {
  beforeAll(async () => {
    // Forest only, two samples per (triple, task, class): one to train (practice), one to test.
    const config = DatasetConfigSchema.parse({ seed: 5, environments: ['forest'], counts: { ego: 24, allo: 24 }, splits: [0.5, 0, 0.5], samples: 1, allowEmptySplits: true });
    await generateDataset(dataset, config, { sheets: false });
  }, 600_000);

  it('refuses a cell short of N samples, writing nothing', () => {
    expect(() => writeRelationBlock(tasksDir, dataset, { name: 'big', perCell: 4 })).toThrow(/8 cells have fewer than 4 samples in split test \(forest\/ego\/front: 3/);
    expect(existsSync(join(tasksDir, 'relation__block__big.json'))).toBe(false);
  });

  it('draws N per environment x task x class cell, adds attention checks and a practice block from train', () => {
    const res = writeRelationBlock(tasksDir, dataset, { name: 'pilot', perCell: 2, practice: 4, catchTrials: 4, seed: 3 });
    expect(res).toEqual({ scored: 'relation__block__pilot', practice: 'relation__block__pilot__practice', trials: 16, catchTrials: 4, practiceTrials: 4, scaling: ['224x224 shown at 448 px (x2.00)'] });
    const task = loadRelationTask(tasksDir, { task_id: res.scored, kind: 'relation' });
    expect(task.spec.trials).toHaveLength(20);
    const cells = new Map<string, number>();
    task.spec.trials.forEach((t, i) => {
      if (t.catch) return;
      const k = `${t.environment}/${t.perspective}/${task.params[i].relation.label}`;
      cells.set(k, (cells.get(k) ?? 0) + 1);
    });
    expect(cells.size).toBe(8);
    expect([...cells.values()].every((n) => n === 2)).toBe(true);
    expect(task.spec.trials.filter((t) => t.catch).map((t) => t.catch)).toEqual(['front', 'back', 'left', 'right']);
    // docs/RELATION.md quotes the first check as the screen shows it (issue 36: it once said "answer left").
    const first = task.spec.trials.find((t) => t.catch)?.question ?? '';
    expect(readFileSync(join('docs', 'RELATION.md'), 'utf8').replace(/\s+/g, ' ')).toContain(`"${first.replace(/\.$/, '')}"`);
    expect(task.spec.block).toMatchObject({ fixation_ms: 500, deadline_ms: null, order_seed: 3 });
    const practice = loadRelationTask(tasksDir, { task_id: res.practice!, kind: 'relation' });
    expect(practice.spec.practice).toBe(true);
    expect(new Set(practice.params.map((p) => `${p.task}/${p.relation.label}`)).size).toBe(4);
    expect(practice.params.some((p) => task.params.some((q) => q.id === p.id))).toBe(false);
  });

  it('plays in a per-participant order recorded in the log, resumes in it, and scores checks, time-outs and model answers', async () => {
    const base = loadRelationTask(tasksDir, { task_id: 'relation__block__pilot', kind: 'relation' });
    const o1 = trialOrder(base.spec, 'P01'), o2 = trialOrder(base.spec, 'P02');
    expect(o1).not.toEqual(o2);
    expect(trialOrder(base.spec, 'P01')).toEqual(o1);
    expect([...o1].sort((a, b) => a - b)).toEqual(base.spec.trials.map((_, i) => i));
    const log = join(root, 'P01.jsonl');
    const { env } = await relationMain.reset(base, opts('P01', log));
    const truthAt = (k: number) => base.spec.trials[o1[k]].catch ?? base.params[o1[k]].relation.label;
    expect(env.kindState?.()).toMatchObject({ trial: 1, trials: 20, block: { fixation_ms: 500 }, observer: base.params[o1[0]].observer });
    for (let k = 0; k < 5; k++) await env.step({ tool: 'answer', args: { relation: truthAt(k), rt_ms: 500 + k } });
    await env.close();
    expect(readTrajectory(log).steps[0].args).toEqual({ order: o1 });
    // A crash after five answers: the log resumes at trial 6 in the same order, whoever asks.
    const again = await relationMain.reset(base, { ...opts('someone-else'), resumeFrom: log });
    expect(again.env.kindState?.()).toMatchObject({ trial: 6 });
    await again.env.step({ tool: 'answer', args: { timed_out: true, rt_ms: 4000 } });
    await again.env.step({ tool: 'answer', args: { relation: 'The target is somewhere over there' } });
    for (let k = 7; k < 20; k++) await again.env.step({ tool: 'answer', args: { relation: truthAt(k), rt_ms: 600 } });
    expect(again.env.done).toBe(true);
    await again.env.close();
    const end = RelationEndSchema.parse(readTrajectory(log).end);
    expect(end.trials).toHaveLength(20);
    expect(end.trials.map((t) => t.params)).toEqual(o1.map((i) => base.spec.trials[i].params));
    expect(end.trials[5]).toMatchObject({ answer: null, correct: false, timed_out: true });
    expect(end.trials[6]).toMatchObject({ answer: null, correct: false, unparsed: 'The target is somewhere over there' });
    expect(end.unparsed).toBe(1);
    expect(end.trials.filter((t) => t.catch)).toHaveLength(4);
    expect(end.trials.filter((t) => t.catch).every((t) => t.correct)).toBe(true);
    expect(end.trials.every((t) => typeof t.server_ms === 'number')).toBe(true);
    // Accuracy over the 16 scored trials: two wrong (the time-out and the unreadable answer)...
    // unless one of them fell on an attention check.
    const scored = end.trials.filter((t) => !t.catch);
    expect(end.accuracy).toBeCloseTo(scored.filter((t) => t.correct).length / 16, 9);
    // Results read the same from the log's calls and the hidden files.
    const rows = trialsOfLog(log, base, 'human', 'P01');
    expect(rows.map((r) => r.correct)).toEqual(end.trials.map((t) => t.correct));
    expect(rows.map((r) => r.truth)).toEqual(end.trials.map((t) => t.truth));
    expect(rows[5]).toMatchObject({ timedOut: true, rtMs: null });
    expect(rows[6]).toMatchObject({ unparsed: 'The target is somewhere over there' });
    expect(rows[0]).toMatchObject({ rtMs: 500, serverMs: expect.any(Number) });
  });
});
