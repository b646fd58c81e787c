// Blind and start-view baselines for a model: the client gets the question (and the start view
// only in start-view), one stop tool. Without a judge the exact checker scores the answer beside
// chance, and the summary line says which open answers it read only provisionally; with a judge
// (issue 35: a scripted judge behind a Chat Completions wire server, through the lab's model
// runner and judgeOne, the path the answerability filter takes) the judge's marks give the
// accuracy, the exact checker's verdict on the closed families beside it.
import { afterEach, describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../../src/main/models/config';
import { makeClient, parseModelSpec } from '../../../../src/main/models/spec';
import { runStaticBaseline, staticLine, type StaticClient } from '../../../../src/main/kinds/search/static-baseline';
import { loadAll } from '../../../../src/main/kinds/search/task-set';
import { startWireServer } from '../../eval/wire-server';
import { searchTasksDir } from './study-fixture';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});
const wireClient = (url: string, name: string) => () => makeClient(parseModelSpec(`openai-chat:${name}`, null), EvalConfigSchema.parse({ providers: { openai: { base_url: `${url}/v1`, api_key_env: 'WIRE_KEY' } }, retry: { max: 3, base_ms: 1 } }), { WIRE_KEY: 'sk-test' });
type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };
const userParts = (body: unknown) => {
  const c = (body as Body).messages.find((m) => m.role === 'user')!.content;
  return typeof c === 'string' ? [{ type: 'text', text: c }] : c;
};

class Recording implements StaticClient {
  seen: { text: string; image: boolean; tools: string[] }[] = [];
  constructor(private readonly answer: string) {}
  start(_system: string, text: string, image: Uint8Array | undefined, tools: { name: string }[]): void {
    this.seen.push({ text, image: image !== undefined, tools: tools.map((t) => t.name) });
  }
  async next() {
    return { calls: [{ name: 'stop', args: { answer: this.answer } }], text: '' };
  }
}

describe('static baselines for a model', () => {
  it('blind sends no image, start-view sends the start view, both one stop tool', async () => {
    const all = await loadAll(searchTasksDir(), ['search__t1', 'search__t2']);
    const blind = new Recording('yes');
    const b = await runStaticBaseline(all, 'blind', () => blind);
    expect(blind.seen.map((s) => [s.image, s.tools])).toEqual([[false, ['stop']], [false, ['stop']]]);
    expect(blind.seen[0].text).toMatch(/answer from the question alone\.\nQuestion: What colour is the cube\?$/);
    // 'yes' answers the yes/no task only.
    expect(b).toMatchObject({ mode: 'blind', episodes: 2, correct: 0.5 });
    const seeing = new Recording('red');
    const s = await runStaticBaseline(all, 'start-view', () => seeing);
    expect(seeing.seen.every((x) => x.image)).toBe(true);
    expect(s.correct).toBe(0.5);
    expect(s.chance).toBeCloseTo(0.5 * (1 / 8) + 0.5 * 0.5);
  }, 60_000);

  it('without a judge, says the open answers were read by the exact checker only, provisionally', async () => {
    const all = await loadAll(searchTasksDir(), ['search__t1', 'search__t2']);
    const s = await runStaticBaseline(all, 'blind', () => new Recording('red'));
    expect(s).toMatchObject({ judge: null, judgeAccuracy: null, judged: 0, unjudgedOpen: 1, closed: 1, exactAccuracy: 0 });
    expect(s.rows.map((r) => r.scored_by)).toEqual(['exact', 'exact']);
    expect(staticLine('m', s)).toBe('m blind: exact checker 50.0% over 2 episodes, not judged (1 open answers read only provisionally: --judge SPEC marks them as E3VS does); analytic chance 31.3%');
  }, 60_000);

  it.each([[5, 1], [1, 0]])('with a judge behind a wire server, judge mark %i gives judge accuracy %i whatever the exact checker says', async (mark, acc) => {
    const all = await loadAll(searchTasksDir(), ['search__t1', 'search__t2']);
    const answerer = await startWireServer('chat', all.map(() => [{ name: 'stop', args: { answer: 'red' } }]));
    const judge = await startWireServer('chat', [], `Judged.\nYour mark: ${mark}`);
    closers.push(answerer.close, judge.close);
    const s = await runStaticBaseline(all, 'start-view', wireClient(answerer.url, 'answerer'), { judge: { name: 'openai-chat:judge', make: wireClient(judge.url, 'judge') }, size: 16 });
    // The exact checker: "red" answers the colour task, not the yes/no one; the judge's marks decide.
    expect(s).toMatchObject({ judge: 'openai-chat:judge', judgeAccuracy: acc, judged: 2, unparseable: 0, correct: 0.5, exactAccuracy: 0, closed: 1, unjudgedOpen: 0 });
    expect(s.rows.map((r) => [r.mark, r.scored_by, r.exact])).toEqual([[mark, 'judge', true], [mark, 'judge', false]]);
    // Served requests (the scripted servers refuse their first and third once): the judge got the
    // pinned prompt with the question, the ground truth and the answer, and two images (start and goal).
    const judged = judge.requests.filter((_, k) => k !== 0 && k !== 2);
    expect(judged).toHaveLength(2);
    const text = userParts(judged[1].body).map((p) => p.text ?? '').join('\n');
    expect(text).toContain('Question: Is there a cube in the room?\nAnswer: yes\nResponse: red\nYour mark:');
    expect(userParts(judged[1].body).filter((p) => p.type === 'image_url')).toHaveLength(2);
    expect(staticLine('m', s)).toBe(`m start-view: judge accuracy ${(100 * acc).toFixed(1)}% over 2 judged answers (0 unparseable) of 2 episodes, judged by openai-chat:judge; exact checker 0.0% on the 1 closed ones; analytic chance 31.3%`);
  }, 60_000);
});
