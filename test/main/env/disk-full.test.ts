// Writes that cannot tear (issue #29 item 6, docs/SECURITY.md): a disk that fills up at byte k,
// for every k in a sweep over the whole log, under a scripted episode. At every k: the failed call
// answers "disk full: no space left on device; nothing was charged" and costs nothing, its retry
// (same request id, after space is freed) is charged once, no record is torn, and the log
// replays completely to the scene and budgets of a run on a disk that never filled.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import type { ToolOut } from '../../../src/main/env/tool-out';
import { FaultyDisk } from '../../../src/main/env/log-faults';
import { LogWriteError, parseTrajectory, readTrajectory } from '../../../src/main/env/trajectory';
import type { EnvGrader } from '../../../src/main/env/types';
import type { LoadedTask } from '../../../src/main/tasks/load';
import type { ToolCall } from '../../../src/shared/env/step';
import { TEST_TASK_IDS } from '../../helpers/test-task';
import { fakeImages, testTask, tmpLog } from './fixtures';

const grader: EnvGrader = {
  grade: async () => ({ score: 42, psnr: 20, ssim: 0.5, lpips: null, iou: 0.4, reward: 0.42, trainingReward: 0.61, lpipsMissing: true }),
  compareViews: async () => [],
  renderViews: async () => [],
};

const SCRIPT: ToolCall[] = [
  { tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: [0.5, 0.2, 0.1], scale: [0.05, 0.05, 0.05], group: 'a' }, { pos: [0.1, 0, 0], color: '#336699' }] } },
  { tool: 'edit_gaussians', args: { gaussians: [{ id: 0, opacity: 0.5 }] } },
  { tool: 'edit_gaussians', args: { gaussians: [{ id: 99, opacity: 0.5 }] } }, // refused: still a charged call
  { tool: 'transform_group', args: { group: 'a', translate: [0.01, 0, 0] } },
  { tool: 'delete_gaussians', args: { ids: [1] } },
  { tool: 'submit' },
];

interface Run {
  answers: string[];
  failures: string[];
  log: string;
  env: SplatEnv;
}

/** Plays the script on a disk of `capacity` bytes; a failed write is retried once space is freed. */
async function play(task: LoadedTask, capacity: number | null): Promise<Run> {
  const disk = new FaultyDisk(capacity);
  const log = tmpLog('full.jsonl');
  const failures: string[] = [];
  const options = { grader, images: fakeImages, log, gradeEachStep: false, logFile: disk.opener() };
  let env: SplatEnv;
  try {
    env = (await SplatEnv.reset(task, options)).env;
  } catch (error) {
    // A start that cannot write its header starts nothing; once space is freed it starts.
    expect(error).toBeInstanceOf(LogWriteError);
    failures.push((error as Error).message);
    disk.heal();
    env = (await SplatEnv.reset(task, options)).env;
  }
  const answers: string[] = [];
  for (const [i, call] of SCRIPT.entries()) {
    const id = `call-${i}`;
    const before = env.budgets();
    let out: ToolOut;
    try {
      out = await env.step(call, id);
    } catch (error) {
      failures.push((error as Error).message);
      expect(env.budgets()).toEqual(before); // nothing was charged
      expect(env.recall(id)).toBeNull(); // and the id is free for the retry
      disk.heal();
      out = await env.step(call, id);
    }
    expect(out.recalled).toBeUndefined();
    answers.push(out.text);
  }
  // An end record that did not fit waits for close(), which writes it once space is freed.
  disk.heal();
  await env.close();
  return { answers, failures, log, env };
}

/** The log is whole: no torn or unreadable line, steps 0..n once each, each request id once. */
function expectWhole(path: string): void {
  const text = readFileSync(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const t = parseTrajectory(text);
  expect(t.truncated).toBe(false);
  expect(t.badLines).toEqual([]);
  expect(t.torn).toEqual([]);
  expect(t.steps.map((s) => s.step)).toEqual(SCRIPT.map((_, i) => i).concat(SCRIPT.length).map((_, i) => i));
  expect(t.steps.slice(1).map((s) => s.request_id)).toEqual(SCRIPT.map((_, i) => `call-${i}`));
  expect(t.end?.calls_used).toBe(SCRIPT.length);
}

describe('a full disk never tears a record or charges a failed call', () => {
  it('fails at byte k for every k of the sweep: whole records, nothing charged, replay complete', async () => {
    const task = await testTask(TEST_TASK_IDS.sculpt);
    const reference = await play(task, null);
    expect(reference.failures).toEqual([]);
    expectWhole(reference.log);
    const total = readFileSync(reference.log).length;
    // Every byte near a record boundary (where off-by-ones live) and a stride through the rest.
    const lines = readFileSync(reference.log, 'utf8').split('\n');
    const ends: number[] = [];
    let at = 0;
    for (const line of lines.slice(0, -1)) ends.push((at += Buffer.byteLength(line) + 1));
    const ks = new Set<number>();
    for (let k = 0; k < total; k += 89) ks.add(k);
    for (const end of [0, ...ends]) for (let d = -1; d <= 1; d++) if (end + d >= 0 && end + d < total) ks.add(end + d);
    for (const k of [...ks].sort((a, b) => a - b)) {
      const run = await play(task, k);
      // A failure inside the end record is no call's failure: the submit was answered and charged.
      const written = readFileSync(run.log, 'utf8');
      const inEnd = k >= Buffer.byteLength(written.slice(0, written.lastIndexOf('\n', written.length - 2) + 1));
      expect(run.failures, `k=${k}`).toEqual(inEnd ? [] : ['disk full: no space left on device; nothing was charged']);
      expect(run.answers, `k=${k}`).toEqual(reference.answers);
      expectWhole(run.log);
      // Replay complete: a resume from the log stands exactly where the live episode ended.
      const resumed = await SplatEnv.reset(task, { grader, images: fakeImages, resumeFrom: run.log, log: tmpLog('again.jsonl'), gradeEachStep: false });
      expect(resumed.env.state()).toEqual(run.env.state());
      expect(resumed.env.budgets()).toEqual(reference.env.budgets());
      expect(resumed.env.resumed().map((s) => s.requestId)).toEqual(SCRIPT.map((_, i) => `call-${i}`));
      await resumed.env.close();
    }
  }, 120_000);

  it('an I/O error on flush answers in its own plain words and charges nothing', async () => {
    const task = await testTask(TEST_TASK_IDS.sculpt);
    const disk = new FaultyDisk(null);
    const log = tmpLog('eio.jsonl');
    const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log, gradeEachStep: false, logFile: disk.opener() });
    await env.step(SCRIPT[0], 'a');
    disk.failSync = true;
    const before = env.budgets();
    await expect(env.step(SCRIPT[1], 'b')).rejects.toThrow(/^input\/output error on the disk; nothing was charged$/);
    expect(env.budgets()).toEqual(before);
    disk.heal();
    const out = await env.step(SCRIPT[1], 'b');
    expect(out.info.step).toBe(2);
    await env.close();
    expect(readTrajectory(log).steps.map((s) => s.request_id)).toEqual([undefined, 'a', 'b']);
  });

  it('a retry with the same request id is answered from the ledger, also after a restart', async () => {
    const task = await testTask(TEST_TASK_IDS.sculpt);
    const log = tmpLog('ledger.jsonl');
    const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log, gradeEachStep: false });
    // Two sends of one call at once: one runs, both get its answer.
    const [a, b] = await Promise.all([env.step(SCRIPT[0], 'x'), env.step(SCRIPT[0], 'x')]);
    expect(a.text).toBe(b.text);
    expect(env.budgets().callsLeft).toBe(task.spec.max_tool_calls - 1);
    const again = await env.step(SCRIPT[0], 'x');
    expect(again.recalled).toBe(true);
    expect(again.info).toEqual(a.info);
    expect(env.recall('never-sent')).toBeNull();
    await env.close();
    const { env: back } = await SplatEnv.reset(task, { grader, images: fakeImages, resumeFrom: log, gradeEachStep: false });
    const recalled = await back.step(SCRIPT[0], 'x');
    expect(recalled.recalled).toBe(true);
    expect(recalled.text).toBe(a.text);
    expect(recalled.info).toEqual(a.info);
    expect(back.budgets().callsLeft).toBe(task.spec.max_tool_calls - 1);
    await back.close();
  });
});

describe('the eval runners retry a failed write transparently', () => {
  it('charges the call once, after space is freed, with the same request id', async () => {
    const { stepOnce } = await import('../../../src/main/eval/episode');
    const task = await testTask(TEST_TASK_IDS.sculpt);
    const disk = new FaultyDisk(null);
    const log = tmpLog('eval.jsonl');
    const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log, gradeEachStep: false, logFile: disk.opener() });
    disk.capacity = disk.used + 10; // the next record does not fit
    let waits = 0;
    const out = await stepOnce(env, SCRIPT[0], { wait: async () => { waits += 1; disk.heal(); } });
    expect(waits).toBe(1);
    expect(out.info.step).toBe(1);
    expect(env.budgets().callsLeft).toBe(task.spec.max_tool_calls - 1);
    await env.close();
    const steps = readTrajectory(log).steps;
    expect(steps).toHaveLength(2);
    expect(typeof steps[1].request_id).toBe('string');
  });
});

describe('replay never skips a record', () => {
  it('reads the record glued after a torn line, and says where the torn write was', () => {
    const head = JSON.stringify({ type: 'header', task: 't', protocol: 'agent', player: 'p', versions: {}, started: 'x' });
    const step = (n: number) => JSON.stringify({ step: n, tool: 'submit', args: { nested: { type: 'x' } }, text: `call ${n}`, t: 'x', ms: 1 });
    const torn = step(2).slice(0, 37);
    const t = parseTrajectory(`${head}\n${step(0)}\n${step(1)}\n${torn}${step(2)}\n${step(3)}\n`);
    expect(t.steps.map((s) => s.step)).toEqual([0, 1, 2, 3]);
    expect(t.torn).toEqual([4]);
    expect(t.badLines).toEqual([]);
  });

  it('splatlab replay names a gap instead of passing over it', async () => {
    const { replayLines } = await import('../../../src/main/cli/commands/replay');
    const path = tmpLog('gap.jsonl');
    const rec = (n: number) => JSON.stringify({ step: n, tool: 'submit', args: {}, text: `call ${n}`, t: 'x', ms: 1 });
    writeFileSync(path, [rec(0), rec(5), rec(6), rec(28)].join('\n') + '\n');
    const lines = replayLines(path, readTrajectory(path));
    expect(lines).toContain('note: the log has no record of steps 1..4 (step 5 follows step 0)');
    expect(lines).toContain('note: the log has no record of steps 7..27 (step 28 follows step 6)');
  });
});
