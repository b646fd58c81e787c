// Humans vs models and the statistics' units: paired differences per task against an exact
// enumeration of the bootstrap distribution, the all-tasks row, exclusions kept out,
// per-participant summaries, the clustered bootstrap of a summary against an exact enumeration,
// the Williams-cycle warning, and questionnaire answer checks.
import { describe, expect, it } from 'vitest';
import { pairedDifferences, participantSummaries } from '../../../src/shared/study/paired';
import { summarize, type EpisodeResult } from '../../../src/shared/study/results';
import { counterbalanceStatus } from '../../../src/shared/study/order';
import { DEFAULT_QUESTIONNAIRES, StudyConfigSchema, answersProblem, defaultTexts } from '../../../src/shared/study/config';
import { defaultKind, kindModule } from '../../../src/shared/kinds/registry';

/** A study's default texts: its default kind's (SplatBench's). */
const DEFAULT_TEXTS = defaultTexts([kindModule(defaultKind()).participant]);

function row(over: Partial<EpisodeResult>): EpisodeResult {
  return { source: 'human', kind: 'human', participant: 'P01', taskId: 'a', family: 'splatbench', measure: 'SplatScore', practice: false, protocol: 'matched', complete: true, score: 50, psnr: 20, ssim: 0.5, iou: 0.5, lpips: null, lpipsMissing: true, reward: 0.5, calls: 4, renders: 1, gaussians: 3, seconds: 100, toolSeconds: 2, started: '2025-01-01T00:00:00Z', log: 'l', ...over };
}
const model = (score: number, run: number, taskId = 'a'): EpisodeResult => row({ source: 'm', kind: 'model', participant: 'm', taskId, score, log: `models/m/${taskId}__r${run}.jsonl` });

/** Every equally likely resample of `values` (n^n draws with replacement), as means. */
function allMeans(values: readonly number[]): number[] {
  const n = values.length;
  const out: number[] = [];
  const idx = new Array<number>(n).fill(0);
  for (;;) {
    out.push(idx.reduce((s, i) => s + values[i], 0) / n);
    let k = 0;
    while (k < n && ++idx[k] === n) idx[k++] = 0;
    if (k === n) return out;
  }
}

/** Exact quantile of a discrete distribution (smallest value whose CDF reaches q), with the CDF gap around it. */
function exactQuantile(values: readonly number[], q: number): { value: number; margin: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.ceil(q * sorted.length) - 1;
  const value = sorted[i];
  const below = sorted.filter((v) => v < value - 1e-12).length / sorted.length;
  const atOrBelow = sorted.filter((v) => v <= value + 1e-12).length / sorted.length;
  return { value, margin: Math.min(q - below, atOrBelow - q) };
}

describe('pairedDifferences', () => {
  // Three participants and two model runs on task a; the exact bootstrap distribution of the
  // difference has 27 x 4 equally likely outcomes.
  const humans = [40, 60, 90].map((score, i) => row({ participant: `P0${i + 1}`, score }));
  const runs = [model(50, 1), model(70, 2)];

  it('is humans minus the model, with the interval of the exact bootstrap distribution', () => {
    const [a] = pairedDifferences([...humans, ...runs], { resamples: 20000, seed: 5 });
    expect(a).toMatchObject({ model: 'm', taskId: 'a', participants: 3, runs: 2, tasks: 1 });
    expect(a.humanMean).toBeCloseTo(190 / 3, 12);
    expect(a.modelMean).toBeCloseTo(60, 12);
    expect(a.difference).toBeCloseTo(190 / 3 - 60, 12);
    const diffs = allMeans([40, 60, 90]).flatMap((h) => allMeans([50, 70]).map((m) => h - m));
    const lo = exactQuantile(diffs, 0.025);
    const hi = exactQuantile(diffs, 0.975);
    // The premise: the 2.5% and 97.5% points sit well inside a step of the CDF, so 20000
    // resamples land on the exact value (sampling error of a quantile ~ 0.1%).
    expect(lo.margin).toBeGreaterThan(0.004);
    expect(hi.margin).toBeGreaterThan(0.004);
    expect(a.low).toBeCloseTo(lo.value, 9);
    expect(a.high).toBeCloseTo(hi.value, 9);
    expect(a.warning).toMatch(/only 3 participants/);
  });

  it('averages the per-task differences over tasks both played, resampling whole participants', () => {
    const rows = [...humans, row({ participant: 'P01', taskId: 'b', score: 10 }), row({ participant: 'P02', taskId: 'b', score: 30 }), ...runs, model(20, 1, 'b'), row({ participant: 'P01', taskId: 'c', score: 99 })];
    const out = pairedDifferences(rows, { resamples: 500 });
    expect(out.map((r) => `${r.taskId}/${r.participants}/${r.runs}`)).toEqual(['a/3/2', 'b/2/1', '(all splatbench tasks)/3/2']);
    const all = out[2];
    expect(all.tasks).toBe(2); // task c has no model run
    expect(all.difference).toBeCloseTo(((190 / 3 - 60) + (20 - 20)) / 2, 12);
    expect(all.low as number).toBeLessThanOrEqual(all.difference as number);
    expect(all.high as number).toBeGreaterThanOrEqual(all.difference as number);
    expect(out[1].warning).toMatch(/only 1 run of the model/);
  });

  it('leaves practice, unfinished and excluded episodes out', () => {
    const rows = [...humans, row({ participant: 'P04', score: 0, excluded: 'fire alarm' }), row({ participant: 'P05', score: 0, practice: true }), row({ participant: 'P06', score: null, complete: false }), ...runs];
    expect(pairedDifferences(rows, { resamples: 200 })[0]).toMatchObject({ participants: 3 });
    expect(pairedDifferences(rows, { resamples: 200 })[0].humanMean).toBeCloseTo(190 / 3, 12);
    // Guard: without the exclusion the zero would pull the mean down.
    expect(pairedDifferences([...rows.slice(0, 3), row({ participant: 'P04', score: 0 }), ...runs], { resamples: 200 })[0].humanMean).toBeCloseTo(190 / 4, 12);
  });

  it('has no rows without a model, and none for a task only one side played', () => {
    expect(pairedDifferences(humans)).toEqual([]);
    expect(pairedDifferences([...humans, model(10, 1, 'z')])).toEqual([]);
  });
});

describe('summarize with exclusions and the clustered bootstrap', () => {
  it('drops excluded episodes from every mean', () => {
    const s = summarize([row({ participant: 'P01', score: 40 }), row({ participant: 'P02', score: 80, excluded: 'left early' })]);
    expect(s[0]).toMatchObject({ n: 1, mean: 40 });
  });

  it("matches the exact distribution of resampled participants' pooled means", () => {
    // P01 has two episodes (10, 20), P02 one (60), P03 one (90): a resample draws three
    // participants; the pooled mean weighs each episode, so P01 counts twice as much.
    const rows = [row({ participant: 'P01', score: 10 }), row({ participant: 'P01', score: 20 }), row({ participant: 'P02', score: 60 }), row({ participant: 'P03', score: 90 })];
    const [a] = summarize(rows, { resamples: 20000, seed: 11 });
    const clusters = [[10, 20], [60], [90]];
    const pooled: number[] = [];
    for (const i of [0, 1, 2]) for (const j of [0, 1, 2]) for (const k of [0, 1, 2]) {
      const all = [...clusters[i], ...clusters[j], ...clusters[k]];
      pooled.push(all.reduce((s, v) => s + v, 0) / all.length);
    }
    const lo = exactQuantile(pooled, 0.025);
    const hi = exactQuantile(pooled, 0.975);
    expect(lo.margin).toBeGreaterThan(0.004);
    expect(hi.margin).toBeGreaterThan(0.004);
    expect(a).toMatchObject({ clusters: 3, n: 4, unit: 'participants' });
    expect(a.low).toBeCloseTo(lo.value, 9);
    expect(a.high).toBeCloseTo(hi.value, 9);
  });
});

describe('participantSummaries', () => {
  it('summarises each participant over the episodes in the statistics', () => {
    const rows = [row({ participant: 'P02', score: 30, calls: 5 }), row({ participant: 'P01', score: 40, seconds: 60 }), row({ participant: 'P01', taskId: 'b', score: 80, seconds: 120, excluded: 'x' }), row({ participant: 'P01', taskId: 'p', practice: true, score: 99 }), model(1, 1)];
    expect(participantSummaries(rows)).toEqual([
      { participant: 'P01', family: 'splatbench', taskKind: 'splatbench', measure: 'SplatScore', tasks: 1, excluded: 1, meanScore: 40, meanSeconds: 60, calls: 8 },
      { participant: 'P02', family: 'splatbench', taskKind: 'splatbench', measure: 'SplatScore', tasks: 1, excluded: 0, meanScore: 30, meanSeconds: 100, calls: 5 },
    ]);
  });
});

describe('counterbalanceStatus', () => {
  it('warns until every slot of the Williams cycle is held equally often', () => {
    const held = (slots: number[]) => slots.map((slot, i) => ({ id: `P0${i + 1}`, slot }));
    // Three tasks: an odd square is paired with its mirror, six orders per cycle.
    const three = counterbalanceStatus(3, 'counterbalanced', held([0, 1, 2]));
    expect(three.cycle).toBe(6);
    expect(three.warning).toBe('3 participants do not complete a Williams cycle of 6 orders: 3 more needed (slots 4, 5, 6): until then the order positions are not balanced across tasks');
    expect(counterbalanceStatus(3, 'counterbalanced', held([0, 1, 2, 3, 4, 5])).warning).toBeNull();
    expect(counterbalanceStatus(3, 'counterbalanced', held([0, 1, 2, 3, 4, 5, 0])).warning).toMatch(/5 more needed/);
    // An assigned slot counts where it is, not where the creation index would put it.
    expect(counterbalanceStatus(2, 'counterbalanced', held([1, 1])).warning).toMatch(/2 more needed \(slot 1\)/);
    expect(counterbalanceStatus(4, 'counterbalanced', []).warning).toMatch(/no participants yet: one Williams cycle needs 4/);
    expect(counterbalanceStatus(4, 'fixed', held([0])).warning).toBeNull();
    expect(three.slots[3]).toEqual({ slot: 3, order: [2, 1, 0], participants: [] });
  });
});

describe('questionnaires', () => {
  it('checks answers against the questions and the config refuses duplicate ids', () => {
    const post = DEFAULT_QUESTIONNAIRES.postTask;
    expect(answersProblem(post, { confidence: 7, strategy: 'edges' })).toBeNull();
    expect(answersProblem(post, {})).toBeNull(); // none required
    expect(answersProblem(post, { confidence: 0 })).toMatch(/from 1 to 7/);
    expect(answersProblem(post, { confidence: 'high' })).toMatch(/from 1 to 7/);
    expect(answersProblem(post, { strategy: 3 })).toMatch(/takes a text/);
    expect(answersProblem([{ ...post[1], required: true }], { strategy: '' })).toMatch(/please answer/);
    const base = { id: 's', name: 's', created: '', tasks: ['a'], practiceTask: 'p', protocol: 'matched', order: 'fixed', texts: DEFAULT_TEXTS };
    expect(StudyConfigSchema.safeParse({ ...base, questionnaires: { demographic: [post[0], post[0]], postTask: [] } }).success).toBe(false);
    expect(StudyConfigSchema.safeParse({ ...base, questionnaires: { demographic: [{ id: 'x', kind: 'choice', prompt: 'x' }] } }).success).toBe(false);
    expect(StudyConfigSchema.parse(base).questionnaires).toEqual({ demographic: [], postTask: [] });
  });
});
