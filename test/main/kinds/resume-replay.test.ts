// One replay for every kind (issue 23 item 4; src/shared/kinds/replay.ts): SplatBench, search and
// relation episodes resume through the strict shared replay, and a log whose logged text its
// replay does not give (the footer kept, the words changed) is refused with the replay's own
// ReplayError, for each kind, before anything is appended.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyTask, mainKind } from '../../../src/main/kinds/registry';
import type { KindTask } from '../../../src/main/kinds/kind';
import type { ToolCall } from '../../../src/shared/env/step';
import { ReplayError, replaysText } from '../../../src/shared/kinds/replay';
import { repoRoot } from '../../../src/main/io/data-dir';
import type { RenderOutput } from '../../../src/shared/raster/types';
import { searchTestTasks } from './search/test-task';
import { fakeImages, testTasks } from '../env/fixtures';
import { TEST_TASK_IDS } from '../../helpers/test-task';

const fakeRender = (): RenderOutput => ({ width: 8, height: 8, rgb: new Float32Array(8 * 8 * 3).fill(0.5), alpha: new Float32Array(64) });

interface Case {
  name: string;
  task: () => Promise<KindTask>;
  calls: ToolCall[];
  options: () => Promise<Record<string, unknown>>;
}

const cases: Case[] = [
  {
    name: 'splatbench',
    task: async () => loadAnyTask(TEST_TASK_IDS.sculpt, { tasksDir: (await testTasks()).tasksDir }),
    calls: [{ tool: 'list_gaussians' }, { tool: 'list_gaussians' }],
    options: async () => ({ grader: (await testTasks()).grader, images: fakeImages, gradeEachStep: false }),
  },
  {
    name: 'search',
    task: async () => loadAnyTask('search__t1', { tasksDir: searchTestTasks() }),
    calls: [{ tool: 'turn_left' }, { tool: 'move_forward' }],
    options: async () => ({ grader: null, renderer: fakeRender }),
  },
  {
    name: 'relation',
    task: async () => loadAnyTask('relation__practice', { tasksDir: join(repoRoot(), 'tasks') }),
    calls: [{ tool: 'answer', args: { confidence: 2 } }, { tool: 'answer', args: { relation: 'left' } }],
    options: async () => ({ grader: null, protocol: 'agent', player: 'test' }),
  },
];

/** Plays the calls into a fresh log and closes the episode. */
async function played(c: Case): Promise<{ task: KindTask; log: string }> {
  const task = await c.task();
  const log = join(mkdtempSync(join(tmpdir(), `splatlab-resume-${c.name}-`)), 'run.jsonl');
  const { env } = await mainKind(task).reset(task, { ...(await c.options()), log } as never);
  for (const call of c.calls) await env.step(call);
  await env.close();
  return { task, log };
}

/** The log with step `step`'s words replaced and its footer kept. */
function withChangedWords(log: string, step: number): void {
  const lines = readFileSync(log, 'utf8').split('\n').map((line) => {
    if (!line) return line;
    const rec = JSON.parse(line) as { step?: number; text?: string };
    if (rec.step !== step || typeof rec.text !== 'string') return line;
    const footer = rec.text.slice(rec.text.lastIndexOf('\n') + 1);
    return JSON.stringify({ ...rec, text: `words the replay never gives\n${footer}` });
  });
  writeFileSync(log, lines.join('\n'));
}

describe.each(cases)('$name resumes through the one replay', (c) => {
  it('resumes a log to where it stood', async () => {
    const { task, log } = await played(c);
    const again = await mainKind(task).reset(task, { ...(await c.options()), resumeFrom: log } as never);
    expect(again.env.resumed()).toHaveLength(c.calls.length);
    await again.env.close();
  }, 120_000);

  it('refuses a log whose logged text does not replay (the footer kept)', async () => {
    const { task, log } = await played(c);
    withChangedWords(log, 1);
    const before = readFileSync(log, 'utf8');
    const err = await mainKind(task).reset(task, { ...(await c.options()), resumeFrom: log } as never).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ReplayError);
    expect((err as Error).message).toMatch(/step 1 .*logged a text its replay does not give/);
    expect(readFileSync(log, 'utf8')).toBe(before);
  }, 120_000);
});

describe('replaysText', () => {
  it('accepts the body and footer with what a live episode puts in front, nothing else', () => {
    const r = { body: 'moved', footer: '[step 1/25]' };
    expect(replaysText('moved\n[step 1/25]', r)).toBe(true);
    expect(replaysText('Trial 1: correct.\nmoved\n[step 1/25]', r)).toBe(true);
    expect(replaysText('removed\n[step 1/25]', r)).toBe(false);
    expect(replaysText('[step 1/25]', r)).toBe(false);
    expect(replaysText('[step 1/25]', { body: '', footer: '[step 1/25]' })).toBe(true);
    expect(replaysText('view text\n[step 1/25]', { body: '', footer: '[step 1/25]' })).toBe(true);
  });
});
