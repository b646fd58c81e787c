// The search aggregates and an episode's accuracy: rater marks over the newest parseable judge
// mark over the exact checker (an unparseable judge reply never counts, no answer scores 0);
// cells per source and family; intervals over answerers with two or more, else over episodes;
// excluded episodes in no cell; seeded and reproducible.
import { describe, expect, it } from 'vitest';
import type { JudgeRecord, SearchEpisodeRow } from '../../../../src/shared/kinds/search/api-scores';
import { aggregateSearch, episodeAccuracy } from '../../../../src/shared/kinds/search/aggregate';

const judge = (mark: number | null, at: string): JudgeRecord => ({ judge: 'j', model: null, prompt_hash: 'h', raw: '', mark, score: mark === null ? null : (100 * (mark - 1)) / 4, at });

function row(over: Partial<SearchEpisodeRow>): SearchEpisodeRow {
  return {
    ref: 'r', who: 'human', source: 'humans', answerer: 'P01', taskId: 't', family: 'color', answerType: 'text', answer: 'x', correct: false,
    accuracy: 0, scoredBy: 'exact', success: false, steps: 5, path_length: 1, collision: 0, excluded: null, ...over,
  };
}

describe('episodeAccuracy', () => {
  it('takes raters over the newest parseable judge mark over the exact checker', () => {
    const raters = [{ rater: 'a', mark: 5 as const, score: 100, at: 't' }, { rater: 'b', mark: 1 as const, score: 0, at: 't' }];
    expect(episodeAccuracy('x', false, true, [judge(1, '1')], raters)).toEqual({ accuracy: 50, scoredBy: 'rater' });
    expect(episodeAccuracy('x', false, true, [judge(5, '1'), judge(3, '2'), judge(null, '3')], [])).toEqual({ accuracy: 50, scoredBy: 'judge' });
    expect(episodeAccuracy('x', true, true, [judge(null, '1')], [])).toEqual({ accuracy: 100, scoredBy: 'exact' });
    // A closed answer type ignores marks; no answer is 0 whatever the marks.
    expect(episodeAccuracy('x', false, false, [judge(5, '1')], raters)).toEqual({ accuracy: 0, scoredBy: 'exact' });
    expect(episodeAccuracy(null, false, true, [judge(5, '1')], raters)).toEqual({ accuracy: 0, scoredBy: 'none' });
  });
});

describe('aggregateSearch', () => {
  const rows = [
    row({ answerer: 'P01', accuracy: 100, success: true }), row({ answerer: 'P01', accuracy: 0, family: 'size' }),
    row({ answerer: 'P02', accuracy: 100, success: true }), row({ answerer: 'P02', accuracy: 100, family: 'size', collision: 1 }),
    row({ answerer: 'P03', accuracy: 0, excluded: 'participant withdrew' }),
    row({ who: 'model', source: 'm', answerer: 'm#r1', accuracy: 0, steps: 25 }), row({ who: 'model', source: 'm', answerer: 'm#r1', accuracy: 100, steps: 3 }),
    row({ who: 'baseline', source: 'oracle', answerer: 'oracle', accuracy: 100 }),
  ];
  const cells = aggregateSearch(rows);

  it('gives a cell per source and family, humans first, excluded episodes left out', () => {
    expect(cells.map((c) => `${c.who}:${c.source}:${c.group}:${c.n}`)).toEqual([
      'human:humans:all:4', 'human:humans:color:2', 'human:humans:size:2', 'model:m:all:2', 'model:m:color:2', 'baseline:oracle:all:1', 'baseline:oracle:color:1',
    ]);
    const h = cells[0];
    expect(h.answerers).toBe(2);
    expect(h.metrics.accuracy.mean).toBe(75);
    expect(h.metrics.success.mean).toBe(0.5);
    expect(h.metrics.collision.mean).toBe(0.25);
    expect(cells[3].metrics.steps.mean).toBe(14);
  });

  it('has intervals that contain the mean (over answerers or episodes), none for a single episode', () => {
    for (const c of cells.filter((x) => x.n >= 2)) {
      const a = c.metrics.accuracy;
      expect(a.low, `${c.source}/${c.group}`).not.toBeNull();
      expect(a.low ?? 0).toBeLessThanOrEqual(a.mean ?? 0);
      expect(a.high ?? 0).toBeGreaterThanOrEqual(a.mean ?? 0);
    }
    // Two human answerers resample participants: P01 (mean 50) and P02 (mean 100) give [50, 100].
    expect([cells[0].metrics.accuracy.low, cells[0].metrics.accuracy.high]).toEqual([50, 100]);
    expect(cells[5].metrics.accuracy).toEqual({ mean: 100, low: null, high: null });
    expect(aggregateSearch(rows)).toEqual(cells);
  });
});
