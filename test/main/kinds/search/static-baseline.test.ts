// Blind and start-view baselines for a model: the client gets the question (and the start view
// only in start-view), one stop tool, and its answer is scored by the exact checker beside chance.
import { describe, expect, it } from 'vitest';
import { runStaticBaseline, type StaticClient } from '../../../../src/main/kinds/search/static-baseline';
import { loadAll } from '../../../../src/main/kinds/search/task-set';
import { searchTasksDir } from './study-fixture';

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
});
