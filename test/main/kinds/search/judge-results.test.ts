// Scoring search episodes (issue 15): the LLM judge through a model runner client (the scripted
// client as a deterministic judge; an unparseable reply recorded without a score), rater marks
// over judge marks over the exact checker, the rater list without identities, the aggregates per
// source and family with bootstrap intervals, and the LabApi rows behind the role/session lock.
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../../../src/main/models/clients/scripted';
import type { ToolSpec } from '../../../../src/main/models/clients/types';
import { judgeLogs, JUDGE_HASH } from '../../../../src/main/kinds/search/judge';
import { judgePath, readJudgements, readRatings } from '../../../../src/main/kinds/search/judge-store';
import { pendingRatings, studySearchLogs, studySearchRows } from '../../../../src/main/kinds/search/study/results';
import { createSearchScoreHandlers } from '../../../../src/main/kinds/search/service/scores';
import { createLabContext } from '../../../../src/main/services/context';
import { dispatchCall, type Handlers } from '../../../../src/main/services/dispatch';
import type { SearchResults } from '../../../../src/shared/kinds/search/scores';
import { aggregateSearch } from '../../../../src/shared/kinds/search/aggregate';
import { e3vsJudgePrompt } from '../../../../src/shared/kinds/search/judge-prompt';
import { addHuman, addModel, searchStudy, type SearchStudy } from './study-fixture';

let s: SearchStudy;
let handlers: Handlers;

async function call<T>(method: string, params: unknown): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

beforeAll(async () => {
  s = await searchStudy();
  await addHuman(s, { search__t1: 'it is scarlet', search__t2: 'yes' });
  await addHuman(s, { search__t1: 'crimson', search__t2: 'no' });
  await addModel(s, 'scripted-basic', 'search__t1', 'red-ish, like a tomato');
  await addModel(s, 'scripted-basic', 'search__t2', 'yes');
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir: s.tasksDir, home: s.home, version: '0.0.0-test', transport: 'direct', listTasks: async () => [] });
  handlers = createSearchScoreHandlers(ctx) as unknown as Handlers;
}, 60_000);

describe('search judge, rater and results', () => {
  it('scores closed answers exactly and free text by the exact checker before any mark', () => {
    const rows = studySearchRows(s.store, s.study.id, s.tasksDir);
    expect(rows).toHaveLength(6);
    const t1 = rows.filter((r) => r.taskId === 'search__t1').map((r) => [r.source, r.answer, r.accuracy, r.scoredBy]);
    // Crimson and red-ish are in the red family: the exact checker reads both as red.
    expect(t1).toEqual([['humans', 'it is scarlet', 100, 'exact'], ['humans', 'crimson', 100, 'exact'], ['scripted-basic', 'red-ish, like a tomato', 100, 'exact']]);
    expect(rows.filter((r) => r.taskId === 'search__t2').map((r) => r.accuracy)).toEqual([100, 0, 100]);
    expect(rows.every((r) => r.success && r.steps === 7 && r.collision === 0)).toBe(true);
  });

  it('judges free-text answers through the scripted runner and records an unparseable reply without a score', async () => {
    const logs = studySearchLogs(s.store, s.study.id, s.tasksDir);
    const bad = await judgeLogs(logs, () => new ScriptedClient('garbage'), 'scripted:garbage');
    expect(bad).toEqual({ judged: 0, unparseable: 3, skipped: 3 });
    const run = await judgeLogs(logs, () => new ScriptedClient('basic'), 'scripted:basic');
    expect(run).toEqual({ judged: 3, unparseable: 0, skipped: 3 });
    // Judged already by the same judge and prompt: skipped unless forced.
    expect((await judgeLogs(logs, () => new ScriptedClient('basic'), 'scripted:basic')).skipped).toBe(6);
    const human1 = logs.find((l) => l.who === 'human' && l.spec.task_id === 'search__t1');
    const recs = readJudgements(human1?.path ?? '');
    expect(recs.map((r) => [r.judge, r.mark, r.score])).toEqual([['scripted:garbage', null, null], ['scripted:basic', 5, 100]]);
    expect(recs[1]).toMatchObject({ prompt_hash: JUDGE_HASH, raw: 'Your mark: 5', model: 'scripted-basic' });
    expect(recs[0].raw).toBe('I would rather not say.');
    expect(existsSync(judgePath(logs.find((l) => l.spec.task_id === 'search__t2')?.path ?? ''))).toBe(false);
    const rows = studySearchRows(s.store, s.study.id, s.tasksDir).filter((r) => r.taskId === 'search__t1');
    expect(rows.map((r) => [r.accuracy, r.scoredBy])).toEqual([[100, 'judge'], [0, 'judge'], [100, 'judge']]);
  });

  it('lists unrated free-text answers without who gave them; a rater mark overrides the judge', async () => {
    const pending = pendingRatings(s.store, s.study.id, s.tasksDir);
    expect(pending.map((p) => p.given).sort()).toEqual(['crimson', 'it is scarlet', 'red-ish, like a tomato']);
    expect(pending[0]).toMatchObject({ question: 'What colour is the cube?', correct: 'red', synonyms: ['scarlet'] });
    expect(Object.keys(pending[0]).sort()).toEqual(['correct', 'given', 'question', 'ref', 'synonyms']);
    const crimson = pending.find((p) => p.given === 'crimson');
    const rec = await call<{ rater: string; mark: number; score: number }>('search.rate', { studyId: s.study.id, ref: crimson?.ref, rater: 'rater-a', mark: 5 });
    expect(rec).toMatchObject({ rater: 'rater-a', mark: 5, score: 100 });
    expect(readRatings(s.store.resolveIn(s.study.id, crimson?.ref ?? ''))).toHaveLength(1);
    expect((await call<unknown[]>('search.pending', { studyId: s.study.id })).length).toBe(2);
    const row = studySearchRows(s.store, s.study.id, s.tasksDir).find((r) => r.answer === 'crimson');
    expect(row).toMatchObject({ accuracy: 100, scoredBy: 'rater' });
    // A closed answer cannot be rated; a bad mark is refused by the schema.
    const yes = studySearchLogs(s.store, s.study.id, s.tasksDir).find((l) => l.spec.task_id === 'search__t2');
    expect((await dispatchCall(handlers, 'search.rate', { studyId: s.study.id, ref: yes?.rel, rater: 'r', mark: 5 })).ok).toBe(false);
    expect((await dispatchCall(handlers, 'search.rate', { studyId: s.study.id, ref: crimson?.ref, rater: 'r', mark: 3 })).ok).toBe(false);
  });

  it('aggregates per source and family with bootstrap intervals (clusters: participants)', async () => {
    const res = await call<SearchResults>('search.results', { studyId: s.study.id });
    const humans = res.cells.find((c) => c.source === 'humans' && c.group === 'all');
    expect(humans).toMatchObject({ who: 'human', n: 4, answerers: 2 });
    // Humans: t1 100 (judge), 100 (rater), t2 100, 0 -> 75.
    expect(humans?.metrics.accuracy.mean).toBe(75);
    expect(humans?.metrics.accuracy.low).not.toBeNull();
    expect(humans?.metrics.accuracy.low ?? 0).toBeLessThanOrEqual(75);
    expect(res.cells.find((c) => c.source === 'humans' && c.group === 'color')?.metrics.accuracy.mean).toBe(100);
    const model = res.cells.find((c) => c.source === 'scripted-basic' && c.group === 'all');
    expect(model).toMatchObject({ who: 'model', n: 2, answerers: 1 });
    expect(model?.metrics.success.mean).toBe(1);
    expect(model?.metrics.steps.mean).toBe(7);
    expect(res.scoredBy).toEqual({ rater: 1, judge: 2, exact: 3, none: 0 });
    expect(aggregateSearch(res.episodes)).toEqual(res.cells);
  });

  it('adds the baseline players as sources on request', async () => {
    const res = await call<SearchResults>('search.results', { studyId: s.study.id, baselines: true });
    expect(new Set(res.cells.filter((c) => c.who === 'baseline').map((c) => c.source))).toEqual(new Set(['random', 'blind', 'start-view', 'oracle']));
    const oracle = res.cells.find((c) => c.source === 'oracle' && c.group === 'all');
    expect(oracle?.metrics.success.mean).toBe(1);
  }, 60_000);

  it('sends the pinned prompt with the question, the answer with its synonyms and the response', async () => {
    const seen: string[] = [];
    class Recording extends ScriptedClient {
      override start(system: string, text: string, image: Uint8Array | readonly Uint8Array[] | undefined, tools: ToolSpec[]): void {
        seen.push(system, text, String(tools.length));
        super.start(system, text, image, tools);
      }
    }
    const client = new Recording('basic');
    const log = studySearchLogs(s.store, s.study.id, s.tasksDir).find((l) => l.who === 'model' && l.spec.task_id === 'search__t1');
    await judgeLogs(log ? [log] : [], () => client, 'recording', {});
    expect(seen[1]).toBe(e3vsJudgePrompt('What colour is the cube?', 'red (also correct: scarlet)', 'red-ish, like a tomato'));
    expect(seen[1]).toMatch(/^You will be given a question[\s\S]*Examples:[\s\S]*Your mark:$/);
    expect(seen[2]).toBe('0');
  });

  it('runs the judge row through the configured runner spec', async () => {
    const out = await call<{ judged: number; skipped: number }>('search.judge', { studyId: s.study.id, model: 'scripted:basic', force: true });
    expect(out.judged).toBe(3);
    expect((await dispatchCall(handlers, 'search.judge', { studyId: s.study.id, model: 'nope' })).ok).toBe(false);
    const path = studySearchLogs(s.store, s.study.id, s.tasksDir).find((l) => l.who === 'model' && l.spec.task_id === 'search__t1')?.path ?? '';
    // garbage, basic, the recording judge above, basic again (forced).
    expect(JSON.parse(readFileSync(judgePath(path), 'utf8'))).toHaveLength(4);
  });
});
