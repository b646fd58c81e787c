// The hidden grade never delays a player's next call (issue 30 item 7): background pool jobs
// start only when nothing else could; a call that begins while a grade runs preempts it (the grade
// stops dispatching, runs again whole at the next idle moment, at most MAX_PREEMPTIONS times);
// hurry() runs queued grades at once; and on a real one-thread pool a render_views comparison
// sent while a deferred grade runs is answered before that grade ends, the grade resumes with the
// views it had finished (each held-out view rendered once in all) and its numbers are unchanged. Every assertion is on order and queue state, none on time.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Grader } from '../../../src/main/grader/grader';
import { loadTask, type LoadedTask } from '../../../src/main/tasks/load';
import { CallActivity, GradeQueue, MAX_PREEMPTIONS } from '../../../src/main/workers/grade-queue';
import { JobCancelled, WorkerPool } from '../../../src/main/workers/pool';
import { packRecords } from '../../../src/shared/scene/records';
import { TEST_TASK_IDS, type TestTask } from '../../helpers/test-task';
import { fixtureTask } from '../tasks/fixture';

describe('WorkerPool background jobs', () => {
  const pool = new WorkerPool({ size: 1 });
  afterAll(() => pool.close());

  it('start a queued player job before queued background jobs, whatever the submission order', async () => {
    const order: string[] = [];
    const job = (client: string, tag: string, background: boolean) =>
      pool.run('probe.echo', { value: 0, tag }, { client, background }).then((r) => order.push(r.tag as string));
    const busy = pool.run('probe.spin', { ms: 100 }, { client: 'z', background: true });
    const all = [job('hidden', 'g1', true), job('hidden', 'g2', true), job('player', 'p1', false), job('other', 'p2', false), job('hidden2', 'h1', true)];
    expect(pool.stats().queued).toBe(5);
    await Promise.all([busy, ...all]);
    expect(order).toEqual(['p1', 'p2', 'g1', 'h1', 'g2']);
  });
});

describe('GradeQueue yields to calls', () => {
  it('preempts a running grade when a call begins and runs it again after the call', async () => {
    const activity = new CallActivity();
    const queue = new GradeQueue(activity);
    const events: string[] = [];
    let runs = 0;
    const grade = queue.run(async (signal) => {
      runs += 1;
      const run = runs;
      events.push(`grade ${run} start`);
      await new Promise<void>((resolve, reject) => {
        if (run > 1) return resolve();
        signal.addEventListener('abort', () => reject(new JobCancelled()), { once: true });
      });
      events.push(`grade ${run} end`);
      return run;
    });
    await expect.poll(() => runs).toBe(1);
    const end = activity.begin();
    events.push('call begins');
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(1); // not restarted while the call is in flight
    expect(queue.pending).toBe(1);
    events.push('call ends');
    end();
    expect(await grade).toBe(2);
    expect(events).toEqual(['grade 1 start', 'call begins', 'call ends', 'grade 2 start', 'grade 2 end']);
    expect(queue.preemptions).toBe(1);
  });

  it(`yields at most ${MAX_PREEMPTIONS} times, then runs to its end`, async () => {
    const activity = new CallActivity();
    const queue = new GradeQueue(activity);
    let runs = 0;
    let release = (): void => undefined;
    const grade = queue.run(
      (signal) =>
        new Promise<number>((resolve, reject) => {
          runs += 1;
          release = () => resolve(runs);
          signal.addEventListener('abort', () => reject(new JobCancelled()), { once: true });
        }),
    );
    for (let i = 1; i <= MAX_PREEMPTIONS + 1; i++) {
      await expect.poll(() => runs).toBe(i);
      activity.begin()();
    }
    release();
    expect(await grade).toBe(MAX_PREEMPTIONS + 1);
    expect(queue.preemptions).toBe(MAX_PREEMPTIONS);
  });

  it('hurry() starts a grade waiting for an idle moment at once, and it no longer yields', async () => {
    const activity = new CallActivity();
    const queue = new GradeQueue(activity);
    const end = activity.begin(); // the call that waits for the grade (an episode's submit)
    let started = false;
    const grade = queue.run(async (signal) => {
      started = true;
      activity.begin(); // another call meanwhile: an urgent grade does not stop for it
      await new Promise((r) => setImmediate(r));
      return signal.aborted;
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toBe(false); // waits for idle: a call is in flight
    queue.hurry();
    expect(await grade).toBe(false);
    expect(queue.preemptions).toBe(0);
    end();
  });

  it('a failure that is not a preemption rejects that grade only', async () => {
    const queue = new GradeQueue(new CallActivity());
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(() => Promise.resolve(7))).toBe(7);
  });
});

describe('a player call during a deferred grade (real pool, one thread)', () => {
  let built: TestTask;
  let task: LoadedTask;
  const pool = new WorkerPool({ size: 1 });
  let grader: Grader;
  beforeAll(async () => {
    ({ task: built } = await fixtureTask());
    task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
    grader = await Grader.create({ lpipsDir: null, pool });
  });
  afterAll(async () => {
    grader.destroy();
    await pool.close();
  });

  it('is answered before the grade ends; the grade, preempted or not, gives the same numbers', async () => {
    const splats = packRecords(built.init);
    const expected = await grader.grade(task, splats);
    const activity = new CallActivity();
    const queue = new GradeQueue(activity);
    const order: string[] = [];
    const statsAtCall: { queued: number; running: number }[] = [];
    // The player's call begins, and its render_views is sent, right after the grade's first view
    // job goes to the thread (the pool dispatches synchronously), so that view is still on the
    // thread whatever the load: a poll for a running job could first look while the last view
    // runs, when nothing is left to preempt.
    const run = pool.run.bind(pool);
    let end: (() => void) | undefined;
    let call: Promise<number> | undefined;
    let queuedAtCall = -1;
    const jobs = vi.spyOn(pool, 'run').mockImplementation((kind, input, opts) => {
      const job = run(kind, input, opts);
      if (opts.background !== true && end !== undefined) queuedAtCall = pool.stats().queued;
      if (opts.background === true && end === undefined) {
        end = activity.begin();
        statsAtCall.push({ queued: pool.stats().queued, running: pool.stats().running });
        call = grader.compareViews(splats, task.reference).then(() => order.push('render_views'));
      }
      return job;
    });
    const done: NonNullable<Parameters<Grader['grade']>[2]>['done'] = [];
    const grade = queue
      .run((signal) => grader.grade(task, splats, { signal, background: true, done }))
      .then((g) => {
        order.push('grade');
        return g;
      });
    await expect.poll(() => call !== undefined).toBe(true);
    // The call's job is queued behind at most the one grade view already running, none after it.
    expect(queuedAtCall).toBe(1);
    await call;
    end?.();
    const graded = await grade;
    expect(order).toEqual(['render_views', 'grade']);
    expect(statsAtCall[0]).toEqual({ queued: 0, running: 1 });
    expect(queue.preemptions).toBe(1);
    expect(graded.score).toBe(expected.score);
    expect(graded.perView).toEqual(expected.perView);
    const background = jobs.mock.calls.filter(([, , opts]) => opts.background === true);
    expect(background).toHaveLength(task.heldout.length); // resumed, not restarted
    jobs.mockRestore();
  });
});
