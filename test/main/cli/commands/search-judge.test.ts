// `splatlab search judge`: the scripted runner judges a study's free-text search answers from the
// command line (one progress line per answer, a summary line), a second run skips what it judged,
// and a bad model spec, a missing study or missing options give one-line errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJudgements } from '../../../../src/main/kinds/search/judge-store';
import { studySearchLogs } from '../../../../src/main/kinds/search/study/results';
import { runCli } from '../run';
import { addHuman, addModel, searchStudy, type SearchStudy } from '../../kinds/search/study-fixture';

let s: SearchStudy;
const saved = process.env.SPLATLAB_HOME;

beforeAll(async () => {
  s = await searchStudy();
  await addHuman(s, { search__t1: 'scarlet', search__t2: 'yes' });
  await addModel(s, 'bot', 'search__t1', 'blue');
  process.env.SPLATLAB_HOME = s.home;
}, 60_000);
afterAll(() => {
  if (saved === undefined) delete process.env.SPLATLAB_HOME;
  else process.env.SPLATLAB_HOME = saved;
});

describe('splatlab search judge', () => {
  it('judges free-text answers through the scripted runner and skips them the second time', async () => {
    const run = await runCli('search', ['judge', '--study', s.study.id, '--model', 'scripted:basic', '--tasks', s.tasksDir]);
    expect(run.code).toBe(0);
    expect(run.out.filter((l) => /: mark [15] \(score (100|0)\)$/.test(l))).toHaveLength(2);
    expect(run.out.at(-2)).toBe('scripted:basic: 2 judged, 0 unparseable, 1 skipped (closed answer, no answer or judged already)');
    expect(run.out.at(-1)).toBe('judge vs human raters: Spearman rho n/a over 0 answers rated by both');
    const marks = studySearchLogs(s.store, s.study.id, s.tasksDir).filter((l) => l.spec.task_id === 'search__t1').map((l) => readJudgements(l.path).map((j) => j.mark));
    expect(marks).toEqual([[5], [1]]);
    const again = await runCli('search', ['judge', '--study', s.study.id, '--model', 'scripted:basic', '--tasks', s.tasksDir]);
    expect(again.out.at(-2)).toMatch(/0 judged, 0 unparseable, 3 skipped/);
    const forced = await runCli('search', ['judge', '--study', s.study.id, '--model', 'scripted:garbage', '--tasks', s.tasksDir, '--force']);
    expect(forced.out.at(-2)).toMatch(/0 judged, 2 unparseable, 1 skipped/);
  });

  it('gives one-line errors for bad input', async () => {
    expect((await runCli('search', ['judge', '--study', s.study.id])).err[0]).toMatch(/needs --study ID and --model SPEC/);
    expect((await runCli('search', ['judge', '--study', 'nope', '--model', 'scripted:basic'])).err[0]).toMatch(/no study 'nope'/);
    expect((await runCli('search', ['judge', '--study', s.study.id, '--model', 'gpt'])).err[0]).toMatch(/is not PROVIDER:MODEL/);
  });
});
