// Issue 24 item 5: a model's episode gets a process stream as a person's does: the runner writes
// its messages and token counts per turn (with times on the trajectory's clock) beside the log,
// against the scripted model server the wire tests use; imported into a study with its stream,
// study.trajectory hands Replay the same events it hands it for a participant, and the archive
// carries it beside the run.
// (docs/STUDIES.md "Process log")
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { runEpisode } from '../../../src/main/eval/episode';
import { makeClient, parseModelSpec } from '../../../src/main/models/spec';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices } from '../../../src/main/services/lab';
import { parseProcessLog, processLogPath } from '../../../src/shared/env/process-log';
import { testTask, testTasks, tmpLog } from '../env/fixtures';
import { startWireServer, type PlannedCall } from './wire-server';

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const add = { name: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#806040', scale: 0.2 }] } };
const PLAN: PlannedCall[][] = [[add], [{ name: 'render_views', args: { views: [0] } }], [], [{ name: 'submit', args: {} }]];

describe("a model episode's process stream", () => {
  it('holds every turn with its tokens, the results and the reminder, and replays from a study', async () => {
    const server = await startWireServer('chat', PLAN);
    stop = server.close;
    const { tasksDir, grader } = await testTasks();
    const task = await testTask('test__sculpt');
    const config = EvalConfigSchema.parse({ providers: { openai: { base_url: `${server.url}/v1`, api_key_env: 'WIRE_KEY' } }, retry: { max: 3, base_ms: 1 } });
    const spec = parseModelSpec('openai-chat:wire-model');
    const log = tmpLog('stream.jsonl');
    await runEpisode({ jobId: 'stream', task, run: 1, spec, log }, { grader, config, client: () => makeClient(spec, config, { WIRE_KEY: 'k' }) });

    const stream = parseProcessLog(readFileSync(processLogPath(log), 'utf8'));
    expect(stream.every((e) => e.e === 'model.message')).toBe(true);
    const replies = stream.filter((e) => e.d?.role === 'assistant');
    // Per turn the tokens and retries the client reported; over the turns they are the meta's totals.
    expect(replies.map((e) => e.d?.turn)).toEqual([1, 2, 3, 4]);
    const meta = JSON.parse(readFileSync(log.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as { input_tokens: number; output_tokens: number; retries: number };
    expect(replies.reduce((s, e) => s + Number(e.d?.input_tokens), 0)).toBe(meta.input_tokens);
    expect(replies.reduce((s, e) => s + Number(e.d?.output_tokens), 0)).toBe(meta.output_tokens);
    expect(replies.map((e) => e.d?.tools)).toEqual(['add_gaussians', 'render_views', '', 'submit']);
    expect(replies.reduce((s, e) => s + Number(e.d?.retries), 0)).toBe(meta.retries);
    expect(meta.retries).toBeGreaterThan(0);
    for (const r of replies) expect(Number(r.d?.latency_ms)).toBeGreaterThanOrEqual(0);
    expect(stream.map((e) => e.d?.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool']);
    expect(stream[6].d?.text).toMatch(/continue by calling one of the tools/);
    // Times: the trajectory's clock, non-decreasing, from the opening to the submit.
    const traj = readTrajectory(log);
    const t0 = Date.parse(traj.steps[0].t);
    const tEnd = Date.parse(traj.steps.at(-1)?.t ?? '');
    expect(stream[0].t).toBeGreaterThanOrEqual(t0);
    expect(stream.at(-1)?.t).toBeGreaterThanOrEqual(tEnd);
    for (let i = 1; i < stream.length; i++) expect(stream[i].t).toBeGreaterThanOrEqual(stream[i - 1].t);

    // A second run over the same path starts a fresh stream.
    const server2 = await startWireServer('chat', [[{ name: 'submit', args: {} }]]);
    const config2 = EvalConfigSchema.parse({ providers: { openai: { base_url: `${server2.url}/v1`, api_key_env: 'WIRE_KEY' } }, retry: { max: 3, base_ms: 1 } });
    const log2 = tmpLog('stream2.jsonl');
    await runEpisode({ jobId: 'stream2', task, run: 1, spec, log: log2 }, { grader, config: config2, client: () => makeClient(spec, config2, { WIRE_KEY: 'k' }) });
    await server2.close();
    expect(parseProcessLog(readFileSync(processLogPath(log2), 'utf8')).filter((e) => e.d?.role === 'assistant')).toHaveLength(1);

    // Imported into a study with its stream, Replay gets it as it gets a participant's.
    const home = mkdtempSync(join(tmpdir(), 'splatlab-model-stream-'));
    const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', listTasks: async () => [], grader: async () => grader });
    const { handlers } = createLabServices(ctx);
    const call = async (method: string, params: unknown): Promise<Record<string, unknown>> => {
      const out = await dispatchCall(handlers, method as never, params);
      if (!out.ok) throw new Error(out.message);
      return out.result as Record<string, unknown>;
    };
    await call('study.create', { name: 'Models', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'fixed' });
    const imported = await call('study.importModel', { studyId: 'models', model: 'wire', text: readFileSync(log, 'utf8'), process: `${readFileSync(processLogPath(log), 'utf8')}not an event\n` });
    expect(existsSync(processLogPath(join(home, 'studies', 'models', String(imported.log))))).toBe(true);
    const view = await call('study.trajectory', { studyId: 'models', log: imported.log });
    expect(view.process).toEqual(stream);
    // The archive carries it beside the run.
    const ex = await call('study.export', { studyId: 'models' });
    expect((ex.files as string[]).some((f) => f.endsWith(processLogPath(String(imported.log))))).toBe(true);
  }, 180_000);
});
