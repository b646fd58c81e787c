// From annotation to task to export on a generated capture: annotator 1 saves a question, answer,
// start and marks; annotator 2 verifies blind; an agreed annotation exports a task that passes
// the conformance check (start unanswerable by annotation, BFS reaches an agreed answerable view),
// loads through the kind, plays to success with the oracle and regrades identically; a
// disagreeing annotation does not export; the episode export writes JSON, PNG and the scenes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAnyTask, mainKind } from '../../../../src/main/kinds/registry';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { exportAnnotation, readAnnotation, saveFirst, verify } from '../../../../src/main/kinds/search/annotations';
import type { SearchEnv, SearchTask } from '../../../../src/main/kinds/search/env';
import { exportEpisodes } from '../../../../src/main/kinds/search/export';
import { regradeSearch } from '../../../../src/main/kinds/search/regrade';
import { checkTaskSet } from '../../../../src/main/kinds/search/task-set';
import { playBaseline } from '../../../../src/shared/kinds/search/players';
import { runCli } from '../../cli/run';
import { captureRoom, writeGeneratedCapture } from './capture-fixture';

let dir: string;
const fakeRender = () => ({ width: 4, height: 4, rgb: new Float32Array(48).fill(1), alpha: new Float32Array(16), depth: new Float32Array(16) });
const p = (x: number, y: number, yaw: number, pitch: number) => ({ x, y, z: 1.25, yaw, pitch });
const GOAL = p(1.25, 2.25, 0, -30);
const first = (id: string) => ({
  id, room: 'search/captures/gen-capture.json',
  question: { family: 'color' as const, text: 'What colour is the cube on the table?', needs: ['cube'] },
  answer: { type: 'text' as const, correct: 'red', synonyms: ['scarlet'] },
  start: p(1.25, 2, 90, 0), tolerance: { position: 0.125, angle: 15 },
  first: { annotator: 'ann-a', started: '2026-12-01T10:00:00Z', finished: '2026-12-01T10:05:00Z', marks: [{ pose: GOAL, answerable: true }, { pose: p(1.25, 2, 90, 0), answerable: false }] },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'search-export-'));
  await writeGeneratedCapture(dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('annotation to task to export', () => {
  it('exports only an agreed annotation, as a conforming task that plays and regrades', async () => {
    saveFirst(dir, first('cube-colour'));
    await expect(exportAnnotation(dir, 'cube-colour')).rejects.toThrow(/not verified yet/);
    expect(() => verify(dir, 'cube-colour', { annotator: 'ann-a', started: 'a', finished: 'b', answer: 'red', marks: [] })).toThrow(/second annotator/);
    const { agreement } = verify(dir, 'cube-colour', {
      annotator: 'ann-b', started: '2026-12-01T11:00:00Z', finished: '2026-12-01T11:04:00Z', answer: 'Scarlet',
      marks: [{ pose: { ...GOAL, x: 1.3 }, answerable: true }, { pose: p(1.25, 2, 90, 0), answerable: false }],
    });
    expect(agreement).toMatchObject({ answer: true, shared: 2, agreeing: 2, percent: 1, agreed: true });
    expect(readAnnotation(dir, 'cube-colour').second?.annotator).toBe('ann-b');
    expect(() => saveFirst(dir, first('cube-colour'))).toThrow(/already verified/);

    const { taskId, report } = await exportAnnotation(dir, 'cube-colour');
    expect(taskId).toBe('search__gen-capture__cube-colour');
    expect(report.problems).toEqual([]);
    expect(report.bfsSteps).toBeGreaterThan(3);
    expect((await checkTaskSet(dir)).tasks.every((r) => r.problems.length === 0)).toBe(true);

    const task = (await loadAnyTask(taskId, { tasksDir: dir })) as SearchTask;
    expect(task.scene.capture?.name).toBe('gen-capture');
    const log = join(dir, 'run.jsonl');
    const { env } = await mainKind(task).reset(task, { grader: undefined as never, log, player: 'oracle', renderer: fakeRender } as never);
    for (const call of playBaseline('oracle', task.spec, task.scene.collider, task.scene.visibility, new Map())) await (env as SearchEnv).step(call);
    expect(env.finalGrade()?.score).toBe(100);
    await env.close();
    const traj = readTrajectory(log);
    expect(traj.end).toMatchObject({ correct: true, success: true, collision: 0 });
    expect(regradeSearch(task, traj).problems).toEqual([]);
  }, 120_000);

  it('annotates a procedural room too: its task takes answerability from the annotation, not the visibility rule', async () => {
    mkdirSync(join(dir, 'search', 'rooms'), { recursive: true });
    writeFileSync(join(dir, 'search', 'rooms', 'gen-room.json'), JSON.stringify({ ...captureRoom(), name: 'gen-room' }));
    saveFirst(dir, { ...first('proc-q'), room: 'search/rooms/gen-room.json' });
    verify(dir, 'proc-q', { annotator: 'ann-b', started: 'a', finished: 'b', answer: 'red', marks: [{ pose: GOAL, answerable: true }, { pose: p(1.25, 2, 90, 0), answerable: false }] });
    const { taskId, report } = await exportAnnotation(dir, 'proc-q');
    expect(report.problems).toEqual([]);
    const task = (await loadAnyTask(taskId, { tasksDir: dir })) as SearchTask;
    expect(task.scene.room?.name).toBe('gen-room');
    expect(task.scene.visibility.answerable(GOAL, task.spec.question.needs)).toBe(true);
    expect(task.scene.visibility.answerable({ ...GOAL, pitch: 0 }, task.spec.question.needs)).toBe(false);
    rmSync(join(dir, `${taskId}.json`));
  }, 120_000);

  it('refuses a disagreeing annotation', async () => {
    saveFirst(dir, first('cube-colour-2'));
    const { agreement } = verify(dir, 'cube-colour-2', { annotator: 'ann-c', started: 'a', finished: 'b', answer: 'blue', marks: [{ pose: GOAL, answerable: true }] });
    expect(agreement.agreed).toBe(false);
    await expect(exportAnnotation(dir, 'cube-colour-2')).rejects.toThrow(/did not agree \(answer differs/);
  });

  it('writes JSON episodes, goal images and the scenes beside them', async () => {
    const out = join(dir, 'export');
    const seen: string[] = [];
    const r = await exportEpisodes(dir, out, { onProgress: (done, total, id) => seen.push(`${done}/${total} ${id}`) });
    expect(seen).toEqual(['1/1 search__gen-capture__cube-colour']);
    const ctl = new AbortController();
    ctl.abort();
    await expect(exportEpisodes(dir, join(dir, 'cancelled'), { signal: ctl.signal })).rejects.toThrow(/cancelled/);
    expect(r.episodes).toEqual(['search__gen-capture__cube-colour']);
    const ep = JSON.parse(readFileSync(join(out, 'episodes', `${r.episodes[0]}.json`), 'utf8'));
    expect(ep).toMatchObject({ scene: 'scenes/search/captures/gen-capture.json', answer_type: 'text', question: 'What colour is the cube on the table?', answerability: { source: 'annotation' } });
    expect(ep.answerable).toHaveLength(1);
    expect(readFileSync(join(out, ep.goal_image)).subarray(1, 4).toString()).toBe('PNG');
    const scene = JSON.parse(readFileSync(join(out, ep.scene), 'utf8'));
    expect(existsSync(join(out, 'scenes', scene.capture))).toBe(true);
    expect(existsSync(join(out, 'scenes', scene.mesh))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')).episodes).toEqual(r.episodes);
  }, 120_000);

  it('runs through the CLI: check, export, and a refused annotation-task', async () => {
    expect((await runCli('search', ['check', '--tasks', dir])).out.at(-1)).toMatch(/^1\/1 search tasks conform over 1 rooms; splits by scene: none 1 rooms \/ 1 episodes$/);
    const exported = await runCli('search', ['export', '--dir', dir, '--out', join(dir, 'cli-export')]);
    expect(exported.code).toBe(0);
    expect(exported.out.at(-1)).toMatch(/^wrote 1 episodes over 1 scenes/);
    const refused = await runCli('search', ['annotation-task', '--dir', dir, '--annotation', 'cube-colour-2']);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/did not agree/);
    expect((await runCli('search', ['export', '--dir', dir])).err[0]).toMatch(/needs --out/);
  }, 120_000);
});
