// Issue 35: every place that reports search accuracy says what gave it, and counts apart the open
// answers that only the exact checker read (not yet judged: a provisional reading). The line is
// built once (src/shared/kinds/search/scored-by.ts) and shown by Results, the paper's table notes
// and `splatlab report`'s metrics table (its title: test/main/kinds/search/report-scored-by.test.ts).
import { describe, expect, it } from 'vitest';
import type { SearchEpisodeRow } from '../../../../src/shared/kinds/search/scores';
import { scoredByCounts, scoredByLine } from '../../../../src/shared/kinds/search/scored-by';
import { searchPaperTables } from '../../../../src/shared/kinds/search/paper-tables';

function row(over: Partial<SearchEpisodeRow>): SearchEpisodeRow {
  return {
    ref: 'r', who: 'model', source: 'm', answerer: 'm#1', taskId: 't', family: 'color', answerType: 'text', answer: 'x', correct: false,
    accuracy: 0, scoredBy: 'exact', success: false, steps: 5, path_length: 1, collision: 0, excluded: null, ...over,
  };
}

const rows = [
  row({ scoredBy: 'exact', answerType: 'text' }), row({ scoredBy: 'exact', answerType: 'text', correct: true, accuracy: 100 }),
  row({ scoredBy: 'exact', answerType: 'yesno' }), row({ scoredBy: 'judge' }), row({ scoredBy: 'rater' }), row({ scoredBy: 'none', answer: null }),
  row({ scoredBy: 'exact', answerType: 'text', excluded: 'withdrew' }),
];

describe('the scored-by line', () => {
  it('counts open answers the exact checker read, not yet judged, apart from the closed ones', () => {
    expect(scoredByCounts(rows)).toEqual({ rater: 1, judge: 1, exact: 3, unjudgedOpen: 2, none: 1 });
    expect(scoredByLine(rows)).toBe("accuracy from 1 rater marks, 1 judge marks, 3 exact checks (2 of them open answers not yet judged: the exact checker's provisional reading), 1 without an answer");
    expect(scoredByLine(rows.filter((r) => r.answerType !== 'text' || r.scoredBy !== 'exact'))).toBe('accuracy from 1 rater marks, 1 judge marks, 1 exact checks, 1 without an answer');
  });

  it('is in the notes of the paper\'s judge-accuracy table', () => {
    const [main] = searchPaperTables(rows);
    expect(main.notes).toContain(`${scoredByLine(rows)}.`);
  });
});
