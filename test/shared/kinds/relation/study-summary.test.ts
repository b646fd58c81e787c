// The relation study summary: per environment x task accuracy with participant-clustered
// intervals (Wilson for a single answerer), reaction-time quartiles and histogram, confusion
// matrices per series, accuracy over the block, attention checks apart, unparseable answers
// counted, and the paper's probe figures as reported.
import { describe, expect, it } from 'vitest';
import { summariseStudy, type StudyTrial } from '../../../../src/shared/kinds/relation/study-summary';
import { RELATION_CLASSES } from '../../../../src/shared/kinds/relation/labels';

const trials: StudyTrial[] = [];
for (const who of ['P01', 'P02', 'P03']) {
  for (let i = 0; i < 24; i++) {
    const truth = RELATION_CLASSES[i % 4];
    // P01 always right, P02 right on ego only, P03 says front to everything.
    const answer = who === 'P01' ? truth : who === 'P02' ? (i % 2 === 0 ? truth : 'back') : 'front';
    trials.push({ who: 'human', answerer: who, trial: i + 1, environment: i < 12 ? 'forest' : 'city', task: i % 2 === 0 ? 'ego' : 'allo', truth, answer, rtMs: 400 + 100 * (i % 5) });
  }
  trials.push({ who: 'human', answerer: who, trial: 25, environment: 'forest', task: 'ego', truth: 'left', answer: who === 'P03' ? 'right' : 'left', rtMs: 300, catch: true });
}
for (let i = 0; i < 24; i++) {
  trials.push({ who: 'model', answerer: 'bot', trial: i + 1, environment: i < 12 ? 'forest' : 'city', task: i % 2 === 0 ? 'ego' : 'allo', truth: RELATION_CLASSES[i % 4], answer: i < 3 ? null : 'left', rtMs: i < 3 ? null : 50, unparsed: i < 3 ? 'somewhere' : undefined });
}

describe('summariseStudy', () => {
  const s = summariseStudy(trials);
  it('gives accuracy per environment x task with intervals clustered by participant, attention checks left out', () => {
    const all = s.cells.find((c) => c.series === 'human' && c.environment === 'all' && c.task === 'ego')!;
    // ego: P01 12/12, P02 12/12, P03 front on ego trials (truth front or left): 6/12.
    expect(all).toMatchObject({ n: 36, correct: 30, clusters: 3 });
    expect(all.low).not.toBeNull();
    expect(all.low!).toBeLessThan(30 / 36);
    expect(all.high!).toBeGreaterThanOrEqual(30 / 36);
    const forestAllo = s.cells.find((c) => c.series === 'human' && c.environment === 'forest' && c.task === 'allo')!;
    expect(forestAllo.n).toBe(18);
    const bot = s.cells.find((c) => c.series === 'model:bot' && c.environment === 'all' && c.task === 'ego')!;
    expect(bot.clusters).toBe(1);
    expect(bot.low).not.toBeNull(); // Wilson
  });
  it('reports reaction times, confusion, accuracy over the block, checks, unparseable answers and the paper', () => {
    const rt = s.rt.find((r) => r.series === 'human' && r.task === 'ego')!;
    expect(rt.n).toBe(36);
    expect(rt.bins.reduce((a, b) => a + b, 0)).toBe(36);
    expect(rt.median).toBe(600);
    const m = s.confusion.find((c) => c.series === 'model:bot' && c.task === 'ego')!.matrix;
    expect(m.front.none).toBe(1);
    expect(s.overBlock.filter((b) => b.series === 'human').map((b) => [b.from, b.to, b.n])).toEqual([[1, 20, 60], [21, 24, 12]]);
    expect(s.checks).toEqual([{ series: 'human', passed: 2, total: 3 }]);
    expect(s.unparsed.find((u) => u.series === 'model:bot')).toEqual({ series: 'model:bot', count: 3, total: 24 });
    expect(s.paper.figures.find((f) => f.model === 'VGGT ViT-L/14' && f.environment === 'forest' && f.probe === 'efficient')?.accuracy).toBe(96.18);
    expect(s.paper.figures.find((f) => f.model === 'CLIP' && f.task === 'allo' && f.probe === 'efficient')?.accuracy).toBe(54.36);
  });
});
