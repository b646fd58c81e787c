// The helpers behind the hardened boundary, each tested so it fails when its check is removed:
// confinedPath/checkSafeId (traversal, symlinks), sanitizeMessage (no paths, no errno names),
// the params depth/size limit in dispatch (nothing runs), the per-connection limiter, upgrade
// URL parsing, budget maxima in the task schema, linear trajectory parsing, a failed start, and
// the deferred hidden grade (answer first, grade in the log after, final score exact).
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSafeId, confinedPath } from '../../../src/main/io/confine';
import { sanitizeMessage } from '../../../src/main/services/sanitize';
import { dispatchCall, MAX_PARAM_DEPTH, paramsShapeProblem } from '../../../src/main/services/dispatch';
import { ConnectionLimits } from '../../../src/main/transport/limits';
import { parseTarget } from '../../../src/main/transport/request';
import { parseTrajectory, readTrajectory } from '../../../src/main/env/trajectory';
import { CallActivity, GradeQueue } from '../../../src/main/workers/grade-queue';
import type { WorkerPool } from '../../../src/main/workers/pool';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import type { EnvGrader } from '../../../src/main/env/types';
import { TaskSpecSchema } from '../../../src/shared/task/schema';
import { fakeServices } from '../services/fixtures';
import { fakeImages, testTask, testTasks, tmpLog } from '../env/fixtures';

describe('confinedPath', () => {
  const base = mkdtempSync(join(tmpdir(), 'splatlab-confine-'));
  const root = join(base, 'root');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(base, 'secret.txt'), 'x');
  symlinkSync(join(base, 'secret.txt'), join(root, 'link.txt'));
  symlinkSync(base, join(root, 'dirlink'));

  it('resolves names inside the root, relative or absolute', () => {
    expect(confinedPath(root, 'sub/a.json', 'file')).toBe(join(root, 'sub', 'a.json'));
    expect(confinedPath(root, join(root, 'sub', 'a.json'), 'file')).toBe(join(root, 'sub', 'a.json'));
  });

  it('refuses traversal, absolute paths elsewhere, NUL and symlinks out, saying nothing of the disk', () => {
    for (const bad of ['../secret.txt', 'sub/../../secret.txt', join(base, 'secret.txt'), '/etc/passwd', 'a\0b', 'link.txt', 'dirlink/secret.txt', '']) {
      expect(() => confinedPath(root, bad, 'file', 'the home'), JSON.stringify(bad)).toThrow(/is outside the home/);
      try {
        confinedPath(root, bad, 'file', 'the home');
      } catch (err) {
        // Only what the client sent is echoed (dispatch then strips absolute paths from it too).
        if (!bad.includes(base)) expect((err as Error).message).not.toContain(base);
      }
    }
  });

  it('checks ids that become file names', () => {
    expect(checkSafeId('test__sculpt', 'task id')).toBe('test__sculpt');
    for (const bad of ['../x', 'a/b', '..', '.hidden', 'a\\b', 'x'.repeat(200)]) expect(() => checkSafeId(bad, 'task id')).toThrow(/not a valid id/);
  });
});

describe('sanitizeMessage', () => {
  it('drops absolute paths and errno names', () => {
    const m = sanitizeMessage("task x: ENOENT: no such file or directory, open '/home/u/SplatLab/tasks/x.json'");
    expect(m).not.toMatch(/ENOENT|\/home\//);
    expect(sanitizeMessage('missing photo /tmp/a/b/ref/V0.png (cameras.json lists 8)')).toBe('missing photo …/V0.png (cameras.json lists 8)');
    expect(sanitizeMessage('budget 3/40 left')).toBe('budget 3/40 left');
  });

  it('is applied to handler errors at the dispatch boundary', async () => {
    const services = fakeServices();
    const handlers = { ...services.handlers, 'tasks.list': async () => { throw new Error("EACCES: permission denied, scandir '/srv/private/tasks'"); } };
    const out = await dispatchCall(handlers, 'tasks.list', {});
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).not.toMatch(/EACCES|\/srv\//);
  });
});

describe('params depth and size limit', () => {
  const nest = (n: number): unknown => {
    let v: unknown = 0;
    for (let i = 0; i < n; i++) v = { a: v };
    return v;
  };

  it('measures any depth without recursion', () => {
    expect(paramsShapeProblem(nest(MAX_PARAM_DEPTH - 1))).toBeNull();
    expect(paramsShapeProblem(nest(MAX_PARAM_DEPTH + 1))).toMatch(/nested deeper/);
    expect(paramsShapeProblem(nest(100_000))).toMatch(/nested deeper/);
  });

  it('refuses before any handler runs', async () => {
    let ran = false;
    const handlers = { ...fakeServices().handlers, 'episode.step': async () => { ran = true; throw new Error('ran'); } };
    const out = await dispatchCall(handlers, 'episode.step', { episodeId: 'e', tool: 'add_gaussians', args: nest(10_000) });
    expect(out).toMatchObject({ ok: false, code: 'bad_request' });
    expect(ran).toBe(false);
  });
});

describe('transport helpers', () => {
  it('parses only clean origin-form targets', () => {
    expect(parseTarget('/lab?token=abc')).toMatchObject({ path: '/lab' });
    for (const bad of ['/%', '/%E0%A4%A', '/%c0%ae', '//', '//evil.example/x', 'http://x/', '', '/a%00b', '/a%5c..']) expect(parseTarget(bad), bad).toBeNull();
  });

  it('limits calls in flight and per second on one connection', () => {
    let now = 0;
    const limits = new ConnectionLimits({ ratePerSecond: 10, burst: 3, maxInFlight: 2 }, () => now);
    const a = limits.admit();
    const b = limits.admit();
    expect(a.ok && b.ok).toBe(true);
    expect(limits.admit()).toMatchObject({ ok: false, reason: expect.stringMatching(/in flight/) });
    if (a.ok) a.done();
    if (b.ok) b.done();
    expect(limits.admit().ok).toBe(true);
    expect(limits.admit()).toMatchObject({ ok: false, reason: expect.stringMatching(/per second/) });
    now += 1000;
    expect(limits.admit().ok).toBe(true);
  });
});

describe('episodes stay consistent', () => {
  const spec = { task_id: 't__sculpt', kind: 'sculpt', object: 'o', max_gaussians: 300, max_tool_calls: 40, max_renders: 16, init_npz: null };

  it('refuses absurd budgets in the task schema', () => {
    expect(TaskSpecSchema.safeParse(spec).success).toBe(true);
    for (const key of ['max_gaussians', 'max_tool_calls', 'max_renders']) expect(TaskSpecSchema.safeParse({ ...spec, [key]: 2 ** 53 - 1 }).success, key).toBe(false);
  });

  it('parses 80k lines in linear time, with validBytes exact for multi-byte text', () => {
    const line = `${JSON.stringify({ step: 1, tool: 'list_gaussians', args: {}, text: 'é ok', t: 't', ms: 1 })}\n`;
    const content = line.repeat(80_000);
    const t0 = performance.now();
    const traj = parseTrajectory(content);
    expect(performance.now() - t0).toBeLessThan(20_000); // generous: the old parser took ~52 s
    expect(traj.steps.length).toBe(80_000);
    expect(traj.validBytes).toBe(Buffer.byteLength(content));
  });

  it('a failed start leaves no log and no live episode', async () => {
    const { tasksDir } = await testTasks();
    const home = mkdtempSync(join(tmpdir(), 'splatlab-fail-'));
    const failing: EnvGrader = { grade: () => Promise.reject(new Error('grader down')), compareViews: () => Promise.reject(new Error('x')), renderViews: () => Promise.reject(new Error('x')) } as unknown as EnvGrader;
    // The lab's pool draws SplatBench's reference sheet as nothing (its photos as one byte each):
    // the start fails after the environment was built.
    const pool = { run: (job: string, input: { views: unknown[] }) => Promise.resolve(job === 'splatbench.publicPhotos' ? input.views.map(() => new Uint8Array(1)) : undefined) } as unknown as WorkerPool;
    const manager = new EpisodeManager({ tasksDir, home, grader: async () => failing, pool });
    await expect(manager.start({ taskId: 'test__sculpt' })).rejects.toThrow(/no reference sheet/);
    const dir = join(home, 'trajectories');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('answers before the deferred grade, then logs it; the end waits for it', async () => {
    const task = await testTask('test__sculpt');
    const { grader } = await testTasks();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slow: EnvGrader = { ...grader, grade: async (t, s) => { await gate; return grader.grade(t, s); }, compareViews: grader.compareViews.bind(grader), renderViews: grader.renderViews.bind(grader) } as EnvGrader;
    const log = tmpLog('deferred.jsonl');
    const { env } = await SplatEnv.reset(task, { grader: slow, images: fakeImages, log, deferHiddenGrades: new GradeQueue(new CallActivity()) });
    const out = await env.step({ tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.1, color: [1, 0, 0] }] } });
    expect(out.text).toMatch(/Added/);
    expect(readTrajectory(log).steps.map((s) => s.hidden)).toEqual([undefined, undefined]); // answered, not graded yet
    release();
    await env.settled();
    const graded = readTrajectory(log);
    expect(graded.badLines).toEqual([]);
    expect(graded.steps.every((s) => s.hidden !== undefined)).toBe(true);
    const inline = await grader.grade(task, (await import('../../../src/shared/scene/records')).packRecords(env.state()));
    expect(graded.steps[1].hidden?.score).toBe(inline.score);
    await env.step({ tool: 'submit' });
    expect(readTrajectory(log).end?.score).toBe(inline.score);
    env.close();
  });
});
