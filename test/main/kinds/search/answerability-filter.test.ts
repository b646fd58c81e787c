// Issue 35: E3VS's answerability filter through the lab's model runner against scripted wire
// servers. A runner answers every task blind and from the start view; the judge marks both. With
// marks of 1 every task is kept and records both answers and marks in its file; with marks of 5
// every task is excluded, its file removed and listed with its marks in
// search/answerability-filter.json. The answering model sees no image blind and the start view
// otherwise; the judge sees the start and goal views.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../../src/main/models/config';
import { makeClient, parseModelSpec } from '../../../../src/main/models/spec';
import { filterAnswerability, FILTER_RECORD } from '../../../../src/main/kinds/search/answerability-filter';
import { loadAll } from '../../../../src/main/kinds/search/task-set';
import { readSpec } from '../../../../src/main/tasks/load';
import { SearchTaskSpecSchema } from '../../../../src/shared/kinds/search/kind';
import { startWireServer } from '../../eval/wire-server';
import { searchTasksDir } from './study-fixture';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function run(mark: number) {
  const dir = searchTasksDir();
  const all = await loadAll(dir);
  const answerer = await startWireServer('chat', all.flatMap(() => [[{ name: 'stop', args: { answer: 'red' } }], [{ name: 'stop', args: { answer: 'red' } }]]));
  const judge = await startWireServer('chat', [], `Judged.\nYour mark: ${mark}`);
  closers.push(answerer.close, judge.close);
  const client = (url: string, name: string) => () => makeClient(parseModelSpec(`openai-chat:${name}`, null), EvalConfigSchema.parse({ providers: { openai: { base_url: `${url}/v1`, api_key_env: 'WIRE_KEY' } }, retry: { max: 3, base_ms: 1 } }), { WIRE_KEY: 'sk-test' });
  const res = await filterAnswerability(dir, all, client(answerer.url, 'answerer'), client(judge.url, 'judge'), { model: 'openai-chat:answerer', judge: 'openai-chat:judge', size: 32, now: () => new Date('2026-12-04T00:00:00Z') });
  return { dir, all, res, answerer, judge };
}

const images = (body: unknown) => ((body as { messages: { role: string; content: string | { type: string }[] }[] }).messages.find((m) => m.role === 'user')!.content as { type: string }[])
  .filter((p) => typeof p === 'object' && p.type === 'image_url').length;

describe('the answerability filter (E3VS)', () => {
  it('keeps tasks marked below 3 and records both answers and marks in each', async () => {
    const { dir, all, res, answerer, judge } = await run(1);
    expect(res.excluded).toEqual([]);
    expect(res.kept.sort()).toEqual(all.map((a) => a.spec.task_id).sort());
    for (const id of res.kept) {
      expect(readSpec(dir, id, SearchTaskSpecSchema).answerability_filter).toEqual({
        model: 'openai-chat:answerer', judge: 'openai-chat:judge', prompt_hash: expect.any(String) as string, threshold: 3,
        blind: { answer: 'red', mark: 1 }, start_view: { answer: 'red', mark: 1 }, image_size: 32, at: '2026-12-04T00:00:00.000Z',
      });
    }
    // Served requests (the scripted servers refuse their first and third once): blind without an
    // image, start view with one; the judge with two (start and goal views).
    const asked = answerer.requests.filter((_, k) => k !== 0 && k !== 2).map((r) => images(r.body));
    expect(asked).toEqual(all.flatMap(() => [0, 1]));
    expect(judge.requests.filter((_, k) => k !== 0 && k !== 2).every((r) => images(r.body) === 2)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, FILTER_RECORD), 'utf8'))).toMatchObject({ kept: all.length, excluded: [], threshold: 3 });
  });

  it('excludes tasks marked 3 or more: files removed, listed with their marks', async () => {
    const { dir, all, res } = await run(5);
    expect(res.kept).toEqual([]);
    expect(res.excluded.map((e) => e.task_id).sort()).toEqual(all.map((a) => a.spec.task_id).sort());
    for (const e of res.excluded) {
      expect(existsSync(join(dir, `${e.task_id}.json`))).toBe(false);
      expect(e.blind).toEqual({ answer: 'red', mark: 5 });
    }
    expect(JSON.parse(readFileSync(join(dir, FILTER_RECORD), 'utf8')).excluded).toHaveLength(all.length);
  });
});
