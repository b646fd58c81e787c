// Crash safety: a child process playing a scripted episode is SIGKILLed at seeded random points
// (>= 20 times: a random call of the script, then a random part of a call's time). Each log must parse up to its last completed call, and resuming it must finish
// with exactly the scene, budgets, texts and hidden scores of an uninterrupted run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/shared/math/random';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { fakeImages, testTask, testTasks, tmpLog } from './fixtures';
import { scriptedCalls } from './script';
import { childArgs, childEnv } from '../../helpers/child-entry';

const CHILD = fileURLToPath(new URL('./kill-child.ts', import.meta.url));
const TASK = 'test__sculpt';

/** Where a child is killed: `delayMs` after it printed "step <afterStep>" ("ready" for -1). */
interface KillPoint {
  afterStep: number;
  delayMs: number;
}

/**
 * Starts the child and SIGKILLs it at `at` (never, when null). Resolves with the time from
 * "ready" to the end of the child. The kill is counted from a call the child reported, not from
 * its start, so the kills spread over the episode however fast the (loaded) machine runs it.
 */
function runAndKill(tasksDir: string, log: string, at: KillPoint | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childArgs(CHILD), tasksDir, TASK, log], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    let err = '';
    let out = '';
    let ready = 0;
    let armed = false;
    const mark = at === null ? null : at.afterStep < 0 ? 'ready\n' : `step ${at.afterStep}\n`;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!ready && out.includes('ready')) ready = Date.now();
      if (at && mark && !armed && out.includes(mark)) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), at.delayMs);
      }
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' || code === 0 ? resolve(Date.now() - (ready || Date.now())) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

async function playRest(log: string | null): Promise<{ env: SplatEnv; log: string }> {
  const { grader } = await testTasks();
  const task = await testTask(TASK);
  const path = log ?? tmpLog('full.jsonl');
  const resume = log !== null && existsSync(log) && readTrajectory(log).header !== null;
  const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log: path, ...(resume ? { resumeFrom: path } : {}) });
  const calls = scriptedCalls();
  for (let i = task.spec.max_tool_calls - env.budgets().callsLeft; i < calls.length && !env.done; i++) await env.step(calls[i]);
  env.close();
  return { env, log: path };
}

describe('kill and resume', () => {
  it('resumes exactly after SIGKILL at 20 random points', async () => {
    const { tasksDir } = await testTasks();
    const full = await playRest(null);
    const fullLog = readTrajectory(full.log);
    const strip = (t: ReturnType<typeof readTrajectory>) => t.steps.map((s) => ({ step: s.step, tool: s.tool, text: s.text, hidden: s.hidden, state: s.state }));
    // One call's time on this machine, for the random delay after the call a kill is counted from.
    const calls = scriptedCalls().length;
    const callMs = Math.max(2, (await runAndKill(tasksDir, tmpLog('timing.jsonl'), null)) / calls);
    const rng = new Random(7);
    const cutAt: number[] = [];
    const rounds = Array.from({ length: 20 }, (_, round) => ({
      log: tmpLog(`kill-${round}.jsonl`),
      at: { afterStep: Math.floor(rng.uniform(-1, calls - 1)), delayMs: rng.uniform(0, callMs) },
    }));
    // Two children at a time (the machine has two cores); the kills themselves stay independent.
    for (let i = 0; i < rounds.length; i += 2) await Promise.all(rounds.slice(i, i + 2).map((r) => runAndKill(tasksDir, r.log, r.at)));
    for (const { log } of rounds) {
      if (existsSync(log)) {
        const partial = readTrajectory(log);
        expect(partial.badLines).toEqual([]);
        partial.steps.forEach((s, i) => expect(s.step).toBe(i));
        expect(strip(partial)).toEqual(strip(fullLog).slice(0, partial.steps.length));
        cutAt.push(partial.steps.length);
      } else cutAt.push(-1);
      const resumed = await playRest(log);
      expect(resumed.env.state()).toEqual(full.env.state());
      expect(resumed.env.budgets()).toEqual(full.env.budgets());
      expect(resumed.env.finalGrade()).toEqual(full.env.finalGrade());
      const after = readTrajectory(log);
      expect(after.truncated).toBe(false);
      expect(strip(after)).toEqual(strip(fullLog));
      expect(after.end?.score).toBe(fullLog.end?.score);
    }
    // The kills must land at different points of the episode, not all before or after it.
    expect(new Set(cutAt).size).toBeGreaterThan(4);
    expect(cutAt.filter((n) => n > 1 && n < fullLog.steps.length).length).toBeGreaterThan(5);
  }, 400_000); // 21 child processes: at load 11 the first two minutes were not enough (a limit only for a hang)
});
