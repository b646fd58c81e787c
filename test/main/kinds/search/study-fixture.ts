// Test fixture: a lab home with one study over two hand-made search tasks (a free-text colour
// question and a yes/no question) and real search logs played through SearchEnv with a flat
// fake render: participants' episodes (registered in participants.json) and model runs stored
// as models/<model>/<task>__r<n>.jsonl. Used by the judge, rater and results tests.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadAnyTask, mainKind } from '../../../../src/main/kinds/registry';
import { StudyStore } from '../../../../src/main/study/store';
import type { ToolCall } from '../../../../src/shared/env/step';
import type { RenderOutput } from '../../../../src/shared/raster/types';
import type { ParticipantEpisode, StudyConfig } from '../../../../src/shared/study/config';
import { emptyRoom, target } from '../../../shared/kinds/search/rooms';

const fakeRender = (): RenderOutput => ({ width: 8, height: 8, rgb: new Float32Array(8 * 8 * 3).fill(0.5), alpha: new Float32Array(64) });

const START = { x: 2, y: 2, z: 1, yaw: 180, pitch: 0 };
const GOAL = { x: 2, y: 2, z: 1, yaw: 0, pitch: 0 };

export function searchTasksDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-search-tasks-'));
  mkdirSync(join(dir, 'rooms'));
  writeFileSync(join(dir, 'rooms', 'test-room.json'), JSON.stringify(emptyRoom([target('cube-1', [3, 2, 1], 0.2)])));
  const base = { kind: 'search', room: 'rooms/test-room.json', start: START, goal: GOAL, answerable: [GOAL], distance: 6 };
  writeFileSync(join(dir, 'search__t1.json'), JSON.stringify({ ...base, task_id: 'search__t1',
    question: { id: 'test-room/color-1', family: 'color', text: 'What colour is the cube?', answer: { type: 'text', correct: 'red', synonyms: ['scarlet'] }, needs: ['cube-1'] } }));
  writeFileSync(join(dir, 'search__t2.json'), JSON.stringify({ ...base, task_id: 'search__t2',
    question: { id: 'test-room/size-1', family: 'size', text: 'Is there a cube in the room?', answer: { type: 'yesno', correct: 'yes' }, needs: ['cube-1'] } }));
  writeFileSync(join(dir, 'search__p.json'), JSON.stringify({ ...base, task_id: 'search__p',
    question: { id: 'test-room/color-2', family: 'color', text: 'What colour is the cube here?', answer: { type: 'text', correct: 'red', synonyms: [] }, needs: ['cube-1'] } }));
  return dir;
}

/** Six turns to face the cube, then stop with the answer (null: no stop, the log stays open). */
export const facing = (answer: string): ToolCall[] => [...Array.from({ length: 6 }, () => ({ tool: 'turn_left' })), { tool: 'stop', args: { answer } }];

export async function playLog(tasksDir: string, taskId: string, path: string, calls: readonly ToolCall[], player = 'test'): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const task = await loadAnyTask(taskId, { tasksDir });
  const { env } = await mainKind(task).reset(task, { grader: undefined as never, log: path, player, renderer: fakeRender } as never);
  for (const c of calls) await env.step(c);
  await env.close();
}

export interface SearchStudy {
  home: string;
  tasksDir: string;
  store: StudyStore;
  study: StudyConfig;
}

/** A study over search__t1 and search__t2 with no episodes yet. */
export async function searchStudy(): Promise<SearchStudy> {
  const tasksDir = searchTasksDir();
  const home = mkdtempSync(join(tmpdir(), 'splatlab-search-home-'));
  const store = new StudyStore(home);
  const study = await store.create({ name: 'Search study', tasks: ['search__t1', 'search__t2'], practiceTask: 'search__p', order: 'fixed' }, new Set(['search__t1', 'search__t2', 'search__p']));
  return { home, tasksDir, store, study };
}

/** A participant who played the given tasks with the given answers (episodes registered). */
export async function addHuman(s: SearchStudy, answers: Record<string, string>): Promise<string> {
  const p = await s.store.addParticipant(s.study.id);
  const episodes: ParticipantEpisode[] = [];
  for (const [taskId, answer] of Object.entries(answers)) {
    const log = s.store.trajectoryRel(p.id, taskId);
    await playLog(s.tasksDir, taskId, s.store.resolveIn(s.study.id, log), facing(answer), p.id);
    episodes.push({ taskId, practice: false, log, status: 'submitted', started: new Date().toISOString() });
  }
  await s.store.updateParticipant(s.study.id, p.id, (x) => ({ ...x, status: 'completed', episodes }));
  return p.id;
}

/** A model run of a task stored where imported or eval'd model logs lie. */
export async function addModel(s: SearchStudy, model: string, taskId: string, answer: string, run = 1): Promise<string> {
  const rel = `models/${model}/${taskId}__r${run}.jsonl`;
  await playLog(s.tasksDir, taskId, s.store.resolveIn(s.study.id, rel), facing(answer), model);
  return rel;
}
