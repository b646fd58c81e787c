// Issue 35: `splatlab report`'s search metrics table says what gave its accuracy, counting apart
// the open answers that only the exact checker read (no judge has marked them yet). Two logs
// played through SearchEnv (the study fixture): an open colour answer and a closed yes/no one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchReport } from '../../../../src/main/kinds/search/report';
import { facing, playLog, searchTasksDir } from './study-fixture';

describe('the search report\'s scorer line', () => {
  it('names the open answer read only by the exact checker', async () => {
    const dir = searchTasksDir();
    const out = mkdtempSync(join(tmpdir(), 'splatlab-report-scored-'));
    const logs = [];
    for (const [task, answer] of [['search__t1', 'red'], ['search__t2', 'yes']]) {
      const path = join(out, `${task}.jsonl`);
      await playLog(dir, task, path, facing(answer));
      logs.push({ path, kind: 'model' as const, group: 'm', cluster: '1', practice: false });
    }
    const r = searchReport(logs, dir)!;
    expect(r.tables.find((t) => t.id === 'search-metrics')!.title)
      .toMatch(/; accuracy from 0 rater marks, 0 judge marks, 2 exact checks \(1 of them open answers not yet judged: the exact checker's provisional reading\), 0 without an answer$/);
  });
});
