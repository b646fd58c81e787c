// A fifth kind added to the lab's own folders (issue 39, "Done when"): the fixture kind of
// test/fixtures/kinds/brightest is copied into a copy of src/ as src/<runtime>/kinds/brightest/,
// with one import and one list entry in each runtime's registry (src/shared/kinds/registry.ts,
// src/main/kinds/manifests.ts, src/renderer/kinds/registry.ts) and nothing else; the test counts
// what changed outside the kind's folders. The copy's own modules then play it, log, resume
// through the one replay, replay it in Results, run a study whose results, export archive and
// paper tables hold it, export its runs for Inspect scored by its own scorer, serve it over MCP and
// run its own CLI command. (The renderer's half is proved by the lint of the copied files,
// test/lint/fourth-kind-files.test.ts, and in Chromium by test/e2e/fourth-kind.e2e.ts.)
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeSnapshot, EpisodeStepResult } from '../../../../src/shared/api/episode';
import type { StudyExport, StudyResults, TrajectoryView } from '../../../../src/shared/api/study';
import type { StudyConfig } from '../../../../src/shared/study/config';
import type { Handlers } from '../../../../src/main/services/dispatch';
import { brightestPixel, playBrightestSession, writeBrightestTasks } from '../../../fixtures/kinds/brightest/tasks';

const ROOT = process.cwd();
const FIXTURE = join(ROOT, 'test', 'fixtures', 'kinds', 'brightest');
const RUNTIMES = ['shared', 'main', 'renderer'] as const;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
}

/** Where a path of the fixture or of src/ lands in the copy: the fixture's runtime halves go to src/<runtime>/kinds/brightest/. */
function inCopy(copy: string, abs: string): string {
  const rel = relative(FIXTURE, abs).split(sep);
  if (rel[0] !== '..' && (RUNTIMES as readonly string[]).includes(rel[0])) return join(copy, 'src', rel[0], 'kinds', 'brightest', ...rel.slice(1));
  return join(copy, relative(ROOT, abs));
}

/** Copies one fixture file into the copy, its relative imports rewritten for where it now lives. */
function placeFixtureFile(copy: string, file: string): void {
  const dest = inCopy(copy, file);
  const code = readFileSync(file, 'utf8').replace(/(from\s*|import\s*\(\s*)'(\.\.?\/[^']+)'/g, (_m, head: string, spec: string) => {
    let to = relative(dirname(dest), inCopy(copy, resolve(dirname(file), spec))).split(sep).join('/');
    if (!to.startsWith('.')) to = `./${to}`;
    return `${head}'${to}'`;
  });
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, code);
}

/** The registry's one line for the kind: its import after the file's last import, its name at the end of the list. */
function addToRegistry(file: string, name: string, from: string, list: RegExp): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const lastImport = lines.reduce((at, l, i) => (l.startsWith('import ') ? i : at), -1);
  lines.splice(lastImport + 1, 0, `import ${name} from '${from}';`);
  const at = lines.findIndex((l) => list.test(l));
  expect(at, `${file}: the kinds' list`).toBeGreaterThan(-1);
  lines[at] = lines[at].replace(/\](?=[^\]]*$)/, `, ${name}]`);
  writeFileSync(file, lines.join('\n'));
}

/** Lines of `after` not in `before` and of `before` not in `after` (as multisets). */
function lineChanges(before: string, after: string): { added: string[]; removed: string[] } {
  const count = (text: string) => text.split('\n').reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const a = count(before);
  const b = count(after);
  const diff = (x: Map<string, number>, y: Map<string, number>) => [...x].flatMap(([l, n]) => Array<string>(Math.max(0, n - (y.get(l) ?? 0))).fill(l));
  return { added: diff(b, a), removed: diff(a, b) };
}

let copy: string;
let tasksDir: string;
let home: string;
const lab = <T>(path: string): Promise<T> => import(pathToFileURL(join(copy, 'src', path)).href) as Promise<T>;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'splatlab-fifth-kind-'));
  cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
  for (const shared of ['shaders', 'assets', 'package.json']) symlinkSync(join(ROOT, shared), join(copy, shared));
  // The packages linked one by one, not node_modules whole: the copy's sources hash differently, and
  // the bundles it builds under node_modules/.cache (src/main/workers/compiled.ts, one per entry)
  // would replace the checkout's while another test file's pool threads load them.
  mkdirSync(join(copy, 'node_modules'));
  for (const pkg of readdirSync(join(ROOT, 'node_modules'))) if (pkg !== '.cache') symlinkSync(join(ROOT, 'node_modules', pkg), join(copy, 'node_modules', pkg));
  for (const file of walk(FIXTURE)) if ((RUNTIMES as readonly string[]).includes(relative(FIXTURE, file).split(sep)[0])) placeFixtureFile(copy, file);
  addToRegistry(join(copy, 'src/shared/kinds/registry.ts'), 'brightestKind', './brightest/kind', /^const modules: TaskKindModule\[\] = \[/);
  addToRegistry(join(copy, 'src/main/kinds/manifests.ts'), 'brightestManifest', './brightest/manifest', /^const LAB_KINDS: readonly MainKindManifest\[\] = \[/);
  addToRegistry(join(copy, 'src/renderer/kinds/registry.ts'), 'brightestRenderer', './brightest/kind', /^const RENDERER_KINDS: RendererKindModule\[\] = \[/);
  tasksDir = join(copy, 'lab', 'tasks');
  home = join(copy, 'lab', 'home');
  writeBrightestTasks(tasksDir);
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('a fifth kind in the lab\'s own folders', () => {
  it('touches only its folders and one import and one list entry in each runtime\'s registry', () => {
    const changed: string[] = [];
    let lines = 0;
    for (const file of walk(join(copy, 'src'))) {
      const rel = relative(copy, file).split(sep).join('/');
      if (/^src\/(shared|main|renderer)\/kinds\/brightest\//.test(rel)) continue;
      const before = readFileSync(join(ROOT, rel), 'utf8');
      const after = readFileSync(file, 'utf8');
      if (before === after) continue;
      changed.push(rel);
      const { added, removed } = lineChanges(before, after);
      // One import line added, the list's line changed: two lines in, one out.
      expect(added.filter((l) => l.startsWith('import ')), rel).toHaveLength(1);
      expect([added.length, removed.length], rel).toEqual([2, 1]);
      lines += added.length;
    }
    expect(changed.sort()).toEqual(['src/main/kinds/manifests.ts', 'src/renderer/kinds/registry.ts', 'src/shared/kinds/registry.ts']);
    expect(lines).toBe(6);
    expect(walk(join(copy, 'src')).length - walk(join(ROOT, 'src')).length).toBe(walk(FIXTURE).length - 1); // every fixture file but tasks.ts
  });

  it('plays, logs, resumes, replays, runs a study into Results, the export and the paper, exports for Inspect with its scorer, is served over MCP and has its own command', async () => {
    const { registerLabKinds } = await lab<typeof import('../../../../src/main/kinds/manifests')>('main/kinds/manifests.ts');
    registerLabKinds();
    const { EpisodeManager } = await lab<typeof import('../../../../src/main/episodes/manager')>('main/episodes/manager.ts');
    const { createLabContext } = await lab<typeof import('../../../../src/main/services/context')>('main/services/context.ts');
    const { dispatchCall } = await lab<typeof import('../../../../src/main/services/dispatch')>('main/services/dispatch.ts');
    const { createEpisodeHandlers } = await lab<typeof import('../../../../src/main/services/episode')>('main/services/episode.ts');
    const { createStudyHandlers } = await lab<typeof import('../../../../src/main/services/study')>('main/services/study.ts');
    const { readTrajectory } = await lab<typeof import('../../../../src/main/env/trajectory')>('main/env/trajectory.ts');
    const { exportInspect } = await lab<typeof import('../../../../src/main/eval/inspect-export')>('main/eval/inspect-export.ts');
    const { startMcpHttp } = await lab<typeof import('../../../../src/main/mcp/http')>('main/mcp/http.ts');
    const { commands } = await lab<typeof import('../../../../src/main/cli/commands/index')>('main/cli/commands/index.ts');
    const { taskListItem } = await lab<typeof import('../../../../src/main/kinds/task-registry')>('main/kinds/task-registry.ts');

    const grader = async () => ({}) as never;
    const manager = new EpisodeManager({ tasksDir, home, grader, version: '0.0.0-test' });
    const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '0.0.0-test', transport: 'direct', listTasks: async () => [], home, episodes: manager });
    // Only the episode and study rows, which is all this flow calls.
    const handlers = { ...createEpisodeHandlers({ episodes: manager }), ...createStudyHandlers(ctx, { renderer: async () => ({}) as never, grader }) } as Partial<Handlers> as Handlers;
    const call = async <T>(method: string, params: unknown = {}): Promise<T> => {
      const out = await dispatchCall(handlers, method, params);
      if (!out.ok) throw new Error(`${method}: ${out.message}`);
      return out.result as T;
    };

    // Plays, logs, resumes through the one replay.
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'brightest__a', protocol: 'matched' });
    expect(s.kind).toBe('brightest');
    // No zeros for SplatBench's fields (issue 39): the task list's row, its registry entry and the
    // play view's counters carry the calls only.
    const listed = taskListItem(tasksDir, 'brightest__a');
    expect(listed.budgets).toEqual({ maxToolCalls: 3 });
    expect(listed).not.toHaveProperty('startsFromInit');
    expect(listed).not.toHaveProperty('referenceViews');
    expect(listed.entry.budgets).toEqual({ max_tool_calls: 3 });
    expect(s.budgets).toEqual({ callsLeft: 3, maxToolCalls: 3 });
    expect(s).not.toHaveProperty('scene');
    expect(s).not.toHaveProperty('nextId');
    const first = await call<EpisodeStepResult>('episode.step', { episodeId: s.episodeId, tool: 'answer', args: { x: 99, y: 0 } });
    // No zeros for SplatBench's fields (issue 39): a kind without a scene or renders leaves them out.
    expect(Object.keys(first.info)).not.toContain('nextId');
    // Nor SplatBench's created Gaussians and scene change: the step info has no empty ids, no changed false.
    expect(first.info).not.toHaveProperty('ids');
    expect(first.info).not.toHaveProperty('changed');
    expect(first.info.budgets).toEqual({ callsLeft: 2 });
    expect(first.budgets).toEqual({ callsLeft: 2, maxToolCalls: 3 });
    expect(first).not.toHaveProperty('scene');
    expect(first).not.toHaveProperty('nextId');
    await call('episode.close', { episodeId: s.episodeId });
    const log = join(home, 'trajectories', readdirSync(join(home, 'trajectories')).find((f) => f.startsWith('brightest__a'))!);
    expect(readTrajectory(log).header?.budgets).toEqual({ max_tool_calls: 3 });
    const back = await call<EpisodeSnapshot>('episode.resume', { log });
    expect(back.history).toHaveLength(1);
    await call('episode.step', { episodeId: back.episodeId, tool: 'answer', args: brightestPixel('brightest__a') });
    await manager.idle();
    expect(readTrajectory(log).end).toMatchObject({ score: 100, correct: true, calls_used: 2 });

    // A study: Results, the export archive's shared tables and the paper's table of its own.
    const study = await call<StudyConfig>('study.create', { name: 'Fifth', tasks: ['brightest__a', 'brightest__b'], practiceTask: 'brightest__p', order: 'fixed' });
    await playBrightestSession(call, study.id);
    await manager.idle();
    const r = await call<StudyResults>('study.results', { studyId: study.id });
    expect(r.episodes.map((e) => `${e.taskId}:${e.family}:${e.score}`)).toEqual(['brightest__p:brightest:100', 'brightest__a:brightest:100', 'brightest__b:brightest:0']);
    const view = await call<TrajectoryView>('study.trajectory', { studyId: study.id, log: r.episodes[1].log });
    expect(view.steps.map((x) => `${x.step}:${x.tool}:${x.error}`)).toEqual(['0:reset:false', '1:answer:false']);
    const ex = await call<StudyExport>('study.export', { studyId: study.id });
    const files = new Map(Object.entries(unzipSync(readFileSync(ex.path))).map(([name, bytes]) => [name.slice(name.indexOf('/') + 1), new TextDecoder().decode(bytes)]));
    expect(files.get('data/table-summary_data.csv')).toContain('(all brightest tasks),brightest,brightest,correct %,2,50');
    expect(files.get('paper/brightest-correct.csv')).toMatch(/People,2,50\.0/);

    // Over MCP, its own tool; the model's log exported for Inspect, scored by its own scorer.
    const logDir = join(copy, 'lab', 'mcp');
    const server = await startMcpHttp({ tasksDir, grader, logDir, version: '0.0.0-test' }, { token: 'fifth-kind-token-0123456789' });
    try {
      const client = new Client({ name: 'fifth-kind', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: 'Bearer fifth-kind-token-0123456789' } } }));
      await client.callTool({ name: 'start_episode', arguments: { task_id: 'brightest__b' } });
      const answered = (await client.callTool({ name: 'answer', arguments: brightestPixel('brightest__b') })) as CallToolResult;
      expect(answered.structuredContent).toMatchObject({ ok: true, done: true });
      await client.close();
    } finally {
      server.close();
    }
    const inspect = await exportInspect(walk(logDir).filter((f) => f.endsWith('.jsonl')), { tasksDir, grader, version: '0.0.0-test', images: false });
    expect(inspect.problems).toEqual([]);
    const sample = (inspect.logs[0].log as { samples: { scores: Record<string, { value: number }> }[] }).samples[0];
    expect(sample.scores).toEqual({ brightest_correct: expect.objectContaining({ value: 1 }) });

    // Its own command.
    const out: string[] = [];
    expect(await (await commands().brightest.load()).run(['oracle', tasksDir, 'brightest__a'], { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(0);
    expect(JSON.parse(out[0])).toEqual(brightestPixel('brightest__a'));
  });
});
