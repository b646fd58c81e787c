// The conformance check of search tasks passes a committed task and catches broken ones (a start
// that already answers, a stored answer that differs from the room's, no reachable goal).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchTaskSpecSchema } from '../../../../src/shared/kinds/search/kind';
import { readSpec } from '../../../../src/main/tasks/load';
import { loadRoomScene } from '../../../../src/main/kinds/search/scene';
import { checkSearchTask, searchTaskIds } from '../../../../src/main/kinds/search/task-set';

const dir = join(process.cwd(), 'tasks');

describe('search task set', () => {
  const specs = searchTaskIds(dir).map((id) => readSpec(dir, id, SearchTaskSpecSchema));

  it('holds at least 30 tasks over at least 5 rooms', () => {
    expect(specs.length).toBeGreaterThanOrEqual(30);
    expect(new Set(specs.map((s) => s.room)).size).toBeGreaterThanOrEqual(5);
  });

  it('passes the check on the nearest task and fails broken copies of it', () => {
    const spec = [...specs].sort((a, b) => a.distance - b.distance)[0];
    const scene = loadRoomScene(join(dir, spec.room));
    const ok = checkSearchTask(spec, scene);
    expect(ok.problems).toEqual([]);
    expect(ok.bfsSteps).toBe(spec.distance);
    expect(checkSearchTask({ ...spec, start: spec.goal }, scene).problems).toContain('the start view already answers the question');
    const wrong = { ...spec, question: { ...spec.question, answer: { type: 'text' as const, correct: 'purple-ish', synonyms: [] } } };
    expect(checkSearchTask(wrong, scene).problems.join('\n')).toMatch(/stored answer differs/);
    expect(checkSearchTask({ ...spec, max_steps: spec.distance }, scene).problems.join('\n')).toMatch(/no answerable viewpoint within/);
  }, 120_000);
});
