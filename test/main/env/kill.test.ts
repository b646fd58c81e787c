// Crash safety: a child process playing a scripted episode is SIGKILLed at seeded random points
// (>= 20 times). Each log must parse up to its last completed call, and resuming it must finish
// with exactly the scene, budgets, texts and hidden scores of an uninterrupted run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src/shared/math/random';
import { SplatEnv } from '../../../src/main/env/env';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { fakeImages, testTask, testTasks, tmpLog } from './fixtures';
import { scriptedCalls } from './script';

const CHILD = fileURLToPath(new URL('./kill-child.ts', import.meta.url));
const TASK = 'test__sculpt';

/**
 * Starts the child and SIGKILLs it `delayMs` after it printed "ready" (never, when Infinity).
 * Resolves with the time from "ready" to the end of the child.
 */
function runAndKill(tasksDir: string, log: string, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, tasksDir, TASK, log], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let ready = 0;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      if (!ready && d.toString().includes('ready')) {
        ready = Date.now();
        if (Number.isFinite(delayMs)) setTimeout(() => child.kill('SIGKILL'), delayMs);
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
    const episodeMs = Math.max(20, await runAndKill(tasksDir, tmpLog('timing.jsonl'), Infinity));
    const rng = new Random(7);
    const cutAt: number[] = [];
    const rounds = Array.from({ length: 20 }, (_, round) => ({ log: tmpLog(`kill-${round}.jsonl`), delay: rng.uniform(0, episodeMs * 1.1) }));
    // Two children at a time (the machine has two cores); the kills themselves stay independent.
    for (let i = 0; i < rounds.length; i += 2) await Promise.all(rounds.slice(i, i + 2).map((r) => runAndKill(tasksDir, r.log, r.delay)));
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
  }, 120_000);
});
