// Child process of the kill test: plays the scripted episode on a test task into a log (resuming
// when the log already holds calls), prints "ready" once the episode is live and "step <i>" after
// each call i of the script returned (the parent kills at a moment counted from one of these).
// argv: tasksDir taskId logPath
import { existsSync } from 'node:fs';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import { Grader } from '../../../src/main/grader/grader';
import { loadTask } from '../../../src/main/tasks/load';
import { fakeImages } from './fixtures';
import { scriptedCalls } from './script';
import { readTrajectory } from '../../../src/main/env/trajectory';

const [tasksDir, taskId, log] = process.argv.slice(2);
const task = await loadTask(taskId, { tasksDir });
const grader = await Grader.create({ lpipsDir: null });
const resume = existsSync(log) && readTrajectory(log).header !== null;
const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log, ...(resume ? { resumeFrom: log } : {}) });
process.stdout.write('ready\n');
const calls = scriptedCalls();
for (let i = task.spec.max_tool_calls - env.budgets().callsLeft; i < calls.length && !env.done; i++) {
  await env.step(calls[i]);
  process.stdout.write(`step ${i}\n`);
}
env.close();
process.stdout.write('finished\n');
