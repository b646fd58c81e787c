// The relation kind end to end in main: the committed trials load through the kind registry,
// an episode shows the trial image and question, takes answers, gives practice feedback, writes
// its log (end record with every trial), resumes from it, and scores from the log alone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../../../src/main/io/png';
import { loadAnyTask, rulesFor, scanAllTasks } from '../../../../src/main/kinds/registry';
import type { KindEnvOptions } from '../../../../src/main/kinds/kind';
import { relationMain, type RelationTask } from '../../../../src/main/kinds/relation/kind';
import { trialsOfLog } from '../../../../src/main/kinds/relation/study/trials';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { kindModule } from '../../../../src/shared/kinds/registry';
import { RelationEndSchema } from '../../../../src/shared/kinds/relation/kind';
import { RELATION_CLASSES } from '../../../../src/shared/kinds/relation/labels';
import { verifyParams } from '../../../../src/shared/kinds/relation/verify';
import { repoRoot } from '../../../../src/main/io/data-dir';

const tasksDir = join(repoRoot(), 'tasks');
const tmp = mkdtempSync(join(tmpdir(), 'relation-kind-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// The relation env never grades scenes; SplatBench's grader is not needed.
const opts = (log?: string): KindEnvOptions => ({ grader: null as never, protocol: 'agent', player: 'test', ...(log ? { log } : {}) });
const wrong = (c: string) => RELATION_CLASSES.find((x) => x !== c)!;

describe('relation tasks in the task set', () => {
  it('lists 30 scored tasks and a practice block, all five environments and both tasks, with verified labels', async () => {
    const scan = scanAllTasks(tasksDir);
    expect(scan.problems).toEqual([]);
    const rel = scan.tasks.filter((t) => t.kind === 'relation');
    expect(rel).toHaveLength(31);
    expect(new Set(rel.map((t) => t.object))).toEqual(new Set(['forest', 'desert', 'winter_town', 'bridge', 'city', 'practice']));
    for (const s of rel) {
      const task = (await loadAnyTask(s.id, { tasksDir })) as RelationTask;
      for (const p of task.params) expect(verifyParams(p)).toEqual([]);
      expect(JSON.stringify(s)).not.toMatch(/label|angle|position/);
    }
    expect(kindModule('relation').toolSpecs().map((t) => t.name)).toEqual(['answer']);
  });
});

describe('RelationEnv', () => {
  it('plays a scored trial: image and question, a refused call, the answer, the end record', async () => {
    const task = (await loadAnyTask('relation__forest__tent-bear__allo', { tasksDir })) as RelationTask;
    const truth = task.params[0].relation.label;
    const log = join(tmp, 'scored.jsonl');
    const { env, obs } = await relationMain.reset(task, opts(log));
    const png = decodePng(obs.image!);
    expect([png.width, png.height]).toEqual([224, 224]);
    expect(obs.text).toMatch(/person in the scene \(observer\).*tent \(reference\).*bear \(target\)/);
    expect(env.kindState?.()).toMatchObject({ trial: 1, trials: 1, practice: false, feedback: null });
    const bad = await env.step({ tool: 'answer', args: { confidence: 2 } });
    expect(bad.info.ok).toBe(false);
    expect(bad.text).toMatch(/relation/);
    const done = await env.step({ tool: 'answer', args: { relation: truth, rt_ms: 1234, confidence: 3 } });
    expect(done.done).toBe(true);
    expect(done.text).not.toMatch(/correct|not quite/);
    expect(env.finalGrade()).toMatchObject({ score: 100, reward: 1 });
    await env.close();
    const traj = readTrajectory(log);
    const end = RelationEndSchema.parse(traj.end);
    expect(end).toMatchObject({ reason: 'answered', accuracy: 1, calls_used: 2 });
    expect(end.trials[0]).toMatchObject({ environment: 'forest', triple: 'tent-bear', task: 'allo', truth, answer: truth, correct: true, rt_ms: 1234, confidence: 3 });
    // Scored from the log's calls and the hidden files alone, as Results does.
    expect(trialsOfLog(log, task, 'human', 'P01')).toMatchObject([{ correct: true, rtMs: 1234, confidence: 3 }]);
    // The pure rules replay the same episode.
    const rules = rulesFor(task);
    for (const s of traj.steps.filter((x) => x.step > 0)) rules.step({ tool: s.tool, args: s.args });
    expect(rules.done).toBe(true);
  });

  it('gives practice feedback, shows the next image, resumes from its log and gives up', async () => {
    const task = (await loadAnyTask('relation__practice', { tasksDir })) as RelationTask;
    expect(task.spec.trials.length).toBeGreaterThanOrEqual(3);
    const log = join(tmp, 'practice.jsonl');
    const { env, obs } = await relationMain.reset(task, opts(log));
    const t0 = task.params[0].relation.label;
    const r1 = await env.step({ tool: 'answer', args: { relation: wrong(t0) } });
    expect(r1.text).toContain(`Trial 1: not quite, the answer was ${t0}`);
    expect(r1.image).toBeDefined();
    expect(Buffer.from(r1.image!).equals(Buffer.from(obs.image!))).toBe(false);
    expect(env.kindState?.()).toMatchObject({ trial: 2, feedback: expect.stringContaining('not quite') });
    const r2 = await env.step({ tool: 'answer', args: { relation: task.params[1].relation.label } });
    expect(r2.text).toContain('Trial 2: correct');
    await env.close();
    const again = await relationMain.reset(task, { ...opts(), resumeFrom: log });
    expect(again.env.kindState?.()).toMatchObject({ trial: 3 });
    expect(again.env.resumed()).toHaveLength(2);
    const end = await again.env.step({ tool: 'answer', args: { give_up: true } });
    expect(end.done).toBe(true);
    await again.env.close();
    const rec = RelationEndSchema.parse(readTrajectory(log).end);
    expect(rec.reason).toBe('gave_up');
    expect(rec.trials.map((t) => t.correct)).toEqual([false, true, ...task.spec.trials.slice(2).map(() => false)]);
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toHaveLength(1 + 1 + 3 + 1);
  });
});
