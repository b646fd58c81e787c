// The fourth kind (issue 23 item 2): the fixture kind of test/fixtures/kinds/brightest, registered
// only through SPLATLAB_KINDS, plays through the LabApi rows, logs, resumes through the one replay
// (a log whose text does not replay is refused), replays in Results, runs a study whose results
// and export name it as its own family, and is served over MCP: all with no line of the lab's
// shared machinery naming it.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { EpisodeManager } from '../../../../src/main/episodes/manager';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { loadKindPlugins } from '../../../../src/main/kinds/plugins';
import { loadAnyTask, scanAllTasks } from '../../../../src/main/kinds/registry';
import { scorersFor } from '../../../../src/main/eval/scorers';
import { commands } from '../../../../src/main/cli/commands/index';
import { startMcpHttp } from '../../../../src/main/mcp/http';
import { createLabContext } from '../../../../src/main/services/context';
import { dispatchCall, type Handlers } from '../../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../../src/main/services/episode';
import type { LabDeps } from '../../../../src/main/services/lab';
import { createStudyHandlers } from '../../../../src/main/services/study';
import type { EpisodeSnapshot, EpisodeStepResult } from '../../../../src/shared/api/episode';
import type { StudyExport, StudyResults, TrajectoryView } from '../../../../src/shared/api/study';
import { kindModule } from '../../../../src/shared/kinds/registry';
import type { StudyConfig } from '../../../../src/shared/study/config';
import { fakeServices } from '../../services/fixtures';
import { BRIGHTEST_KIND_DIR, brightestPixel, playBrightestSession, writeBrightestTasks } from '../../../fixtures/kinds/brightest/tasks';

let tasksDir: string;
let home: string;
let manager: EpisodeManager;
let handlers: Handlers;

async function call<T>(method: string, params: unknown = {}): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

function lab(): Handlers {
  manager = new EpisodeManager({ tasksDir, home, grader: async () => ({}) as never, version: '0.0.0-test' });
  const deps: LabDeps = { gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '0.0.0-test', transport: 'direct', listTasks: async () => [] };
  const ctx = createLabContext({ ...deps, home, episodes: manager });
  return { ...fakeServices().handlers, ...createEpisodeHandlers({ episodes: manager }), ...createStudyHandlers(ctx, { renderer: async () => ({}) as never, grader: async () => ({}) as never }) };
}

beforeAll(async () => {
  expect(await loadKindPlugins({ SPLATLAB_KINDS: BRIGHTEST_KIND_DIR })).toEqual(['brightest']);
  const root = mkdtempSync(join(tmpdir(), 'splatlab-fourth-kind-'));
  tasksDir = join(root, 'tasks');
  home = join(root, 'home');
  writeBrightestTasks(tasksDir);
  handlers = lab();
});

describe('the fourth kind, from SPLATLAB_KINDS only', () => {
  it('brings a CLI command of its own', async () => {
    const lines: string[] = [];
    const command = await commands().brightest.load();
    expect(await command.run(['oracle', tasksDir, 'brightest__a'], { out: (l) => lines.push(l), err: (l) => lines.push(l) })).toBe(0);
    expect(JSON.parse(lines[0])).toEqual(brightestPixel('brightest__a'));
  });

  it('is listed with its own family and its tools', () => {
    expect(scanAllTasks(tasksDir).tasks.map((t) => `${t.id}:${t.kind}`)).toEqual(['brightest__a:brightest', 'brightest__b:brightest', 'brightest__p:brightest']);
    expect(kindModule('brightest').toolSpecs().map((t) => t.name)).toEqual(['answer']);
  });

  it('plays, logs, resumes through the one replay and ends with its own score', async () => {
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'brightest__a', protocol: 'matched' });
    expect(s.kind).toBe('brightest');
    expect(s.image).toMatch(/^data:image\/png;base64,/);
    const wrong = await call<EpisodeStepResult>('episode.step', { episodeId: s.episodeId, tool: 'answer', args: { x: 99, y: 0 } });
    expect(wrong.info).toMatchObject({ ok: false, charged: true, done: false });
    await call('episode.close', { episodeId: s.episodeId });
    const path = readdirSync(join(home, 'trajectories')).find((f) => f.startsWith('brightest__a'))!;
    const back = await call<EpisodeSnapshot>('episode.resume', { log: join(home, 'trajectories', path) });
    expect(back.history).toHaveLength(1);
    expect(back.budgets.callsLeft).toBe(2);
    const right = await call<EpisodeStepResult>('episode.step', { episodeId: back.episodeId, tool: 'answer', args: brightestPixel('brightest__a') });
    expect(right).toMatchObject({ done: true });
    await manager.idle();
    const traj = readTrajectory(join(home, 'trajectories', path));
    expect(traj.header?.kind).toBe('brightest');
    expect(traj.end).toMatchObject({ score: 100, correct: true, calls_used: 2 });
    // The Inspect export scores it with the scorer of its manifest (issue 39), never with an empty list.
    const scorers = scorersFor('brightest');
    expect(scorers.map((sc) => sc.name)).toEqual(['brightest_correct']);
    const task = await loadAnyTask('brightest__a', { tasksDir });
    await expect(scorers[0].score({ path: join(home, 'trajectories', path), traj, task, grader: async () => ({}) as never })).resolves.toMatchObject({ value: 1 });
  });

  it('refuses to resume a log whose text does not replay', async () => {
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'brightest__b', protocol: 'matched' });
    await call('episode.step', { episodeId: s.episodeId, tool: 'answer', args: { x: 99, y: 0 } });
    await call('episode.close', { episodeId: s.episodeId });
    const file = join(home, 'trajectories', readdirSync(join(home, 'trajectories')).find((f) => f.startsWith('brightest__b'))!);
    writeFileSync(file, readFileSync(file, 'utf8').replace('[calls left 2]', '[calls left 3]'));
    await expect(call('episode.resume', { log: file })).rejects.toThrow(/step 1 logged '\[calls left 3\]' but replays to '\[calls left 2\]'/);
  });

  it('runs a study whose results, replay and export keep it as its own family', async () => {
    const study = await call<StudyConfig>('study.create', { name: 'Brightest', tasks: ['brightest__a', 'brightest__b'], practiceTask: 'brightest__p', order: 'fixed' });
    expect(study.texts.consent).toContain(kindModule('brightest').participant.about);
    await playBrightestSession(call, study.id);
    await manager.idle();
    const r = await call<StudyResults>('study.results', { studyId: study.id });
    expect(r.episodes.map((e) => `${e.taskId}:${e.family}:${e.measure}:${e.score}`)).toEqual(['brightest__p:brightest:correct %:100', 'brightest__a:brightest:correct %:100', 'brightest__b:brightest:correct %:0']);
    expect(r.summary.map((s) => `${s.taskId}:${s.n}:${s.mean}`)).toEqual(['brightest__a:1:100', 'brightest__b:1:0', '(all brightest tasks):2:50']);
    const view = await call<TrajectoryView>('study.trajectory', { studyId: study.id, log: r.episodes[1].log });
    expect(view.steps.map((x) => `${x.step}:${x.tool}:${x.error}`)).toEqual(['0:reset:false', '1:answer:false']);
    const ex = await call<StudyExport>('study.export', { studyId: study.id });
    const files = new Map<string, string>();
    for (const [name, bytes] of Object.entries(unzipSync(readFileSync(ex.path)))) files.set(name.slice(name.indexOf('/') + 1), new TextDecoder().decode(bytes));
    expect(files.get('data/table-summary_data.csv')).toContain('(all brightest tasks),brightest,brightest,correct %,2,50');
    expect(files.get('data/table-episodes_data.csv')?.split('\r\n').filter((l) => l.includes(',brightest,'))).toHaveLength(3);
  });

  it('is served over MCP with its own tool', async () => {
    const logDir = mkdtempSync(join(tmpdir(), 'splatlab-fourth-mcp-'));
    const server = await startMcpHttp({ tasksDir, grader: async () => ({}) as never, logDir, version: '0.0.0-test' }, { token: 'fourth-kind-token-0123456789' });
    try {
      const client = new Client({ name: 'fourth-kind', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: 'Bearer fourth-kind-token-0123456789' } } }));
      const first = (await client.callTool({ name: 'start_episode', arguments: { task_id: 'brightest__a' } })) as CallToolResult;
      expect(first.content.some((c) => c.type === 'image')).toBe(true);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('answer');
      const r = (await client.callTool({ name: 'answer', arguments: brightestPixel('brightest__a') })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ ok: true, done: true });
      await client.close();
    } finally {
      server.close();
    }
  });
});
