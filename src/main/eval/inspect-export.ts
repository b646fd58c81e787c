// `splatlab export inspect`: trajectories as Inspect AI eval logs (docs/AGENTS.md "Inspect
// export"; the format is Inspect's EvalLog, version 2, as its published schema describes it: the
// components of inspect_ai's src/inspect_ai/_view/inspect-openapi.json, checked in
// test/main/eval/inspect-schema.test.ts): one log per player, generate config (effort,
// temperature) and task family, so one (sample id, epoch) pair appears once per log; one sample
// per (task, run) with the run as its epoch (eval.config.epochs: the most runs of a task), the
// messages rebuilt from the trajectory (the kind's system prompt, the first observation, then per
// call the assistant's tool call and the tool's result), one tool event per call (its time, its
// working time), the scores of the pluggable scorers (./scorers.ts) with mean and stderr, the
// model usage from the run's .meta.json and the task's registry entry as metadata.
// Inputs: trajectory files, the tasks folder, the lab's grader. Output: EvalLog JSON documents.
// Invariant: held-out data leave only as the scorers' scores; images are not in trajectories, so
// they are made again by replaying the logged calls (./replay-images.ts) and ride in the messages
// as Inspect's ContentImage, each stored once in the sample's attachments.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { kindModule } from '../../shared/kinds/registry';
import { meanOrNull } from '../../shared/analysis/bootstrap';
import type { TaskKind } from '../../shared/task/schema';
import { readTrajectory, type Trajectory } from '../env/trajectory';
import type { EnvGrader } from '../env/types';
import { loadAnyTask } from '../kinds/registry';
import type { KindTask } from '../kinds/kind';
import { taskEntry } from '../kinds/task-registry';
import { metaPathOf, readMeta, type EpisodeMeta } from '../models/meta';
import { scorersFor, type EpisodeScore } from './scorers';
import { replayImages } from './replay-images';

type Json = Record<string, unknown>;

export interface InspectExportOptions {
  tasksDir: string;
  grader: () => Promise<EnvGrader>;
  version: string;
  /**
   * The images of the calls (./replay-images.ts: the episode played again from its calls, each
   * kind drawing its own): default replayed; false leaves images out.
   */
  images?: false;
  /** Scorer names; default every scorer for each kind. */
  scorers?: string[];
  onProgress?: (done: number, total: number, path: string) => void;
  signal?: AbortSignal;
}

export interface InspectLogFile {
  /** A file name for the log: <created>_<task>_<id>.json, as Inspect names its own. */
  name: string;
  log: Json;
}

export interface InspectExport {
  logs: InspectLogFile[];
  /** One line per trajectory left out (unreadable, no header, a scorer that failed). */
  problems: string[];
}

/** Every trajectory under a folder (or the file itself), metas and process logs left out. */
export function trajectoryFiles(path: string): string[] {
  if (!existsSync(path)) throw new Error(`${path} does not exist`);
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? trajectoryFiles(join(path, e.name)) : e.name.endsWith('.jsonl') ? [join(path, e.name)] : []));
}

function usageOf(meta: EpisodeMeta | null): Json {
  const i = meta?.input_tokens ?? 0;
  const o = meta?.output_tokens ?? 0;
  return { input_tokens: i, output_tokens: o, total_tokens: i + o, ...(meta?.cost_usd !== null && meta?.cost_usd !== undefined ? { total_cost: meta.cost_usd } : {}) };
}

function modelName(traj: Trajectory, meta: EpisodeMeta | null): string {
  if (meta) return `${meta.provider}/${meta.model}`;
  const p = traj.header?.player ?? 'unknown';
  return traj.header?.protocol === 'agent' ? `splatlab/${p}` : `human/${p}`;
}

/** The conversation as the model had it, rebuilt from the log and the replayed images. */
/**
 * A message's content: its text, and the call's image as Inspect's ContentImage when it had one.
 * The image itself goes to the sample's attachments under its hash (`attachment://<sha256>`, as
 * Inspect stores large content), so a sheet shown many times is stored once.
 */
function content(text: string, png: Uint8Array | undefined, attachments: Record<string, string>): string | Json[] {
  if (!png) return text;
  const hash = createHash('sha256').update(png).digest('hex');
  attachments[hash] ??= `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
  return [{ type: 'text', text }, { type: 'image', image: `attachment://${hash}`, detail: 'auto' }];
}

function messages(traj: Trajectory, kind: TaskKind, model: string, tag: string, images: ReadonlyMap<number, Uint8Array>, attachments: Record<string, string>): Json[] {
  const out: Json[] = [{ role: 'system', content: kindModule(kind).agent.system, source: 'input' }];
  const first = traj.steps.find((s) => s.step === 0);
  if (first) out.push({ role: 'user', content: content(first.text, images.get(0), attachments), source: 'input' });
  for (const s of traj.steps) {
    if (s.step === 0) continue;
    const id = `call_${tag}_${s.step}`;
    const args = s.args !== null && typeof s.args === 'object' && !Array.isArray(s.args) ? (s.args as Json) : {};
    const parseError = args === s.args ? null : `the arguments were not a JSON object: ${JSON.stringify(s.args).slice(0, 200)}`;
    out.push({ role: 'assistant', content: '', source: 'generate', model, tool_calls: [{ id, function: s.tool, arguments: args, type: 'function', parse_error: parseError }] });
    out.push({ role: 'tool', content: content(s.text, images.get(s.step), attachments), tool_call_id: id, function: s.tool, error: s.ok === false ? { type: 'parsing', message: s.text.split('\n')[0] } : null });
  }
  // Every message its own id, unique across the log as Inspect's are (its viewer keys lists by them).
  return out.map((m, i) => ({ id: `msg_${tag}_${i}`, ...m }));
}

/** One Inspect ToolEvent per call: when it ran (seconds into the sample), how long, its result. */
function toolEvents(traj: Trajectory, tag: string): Json[] {
  const start = Date.parse(traj.header?.started ?? '');
  return traj.steps
    .filter((s) => s.step > 0)
    .map((s) => {
      const t = Date.parse(s.t);
      const args = s.args !== null && typeof s.args === 'object' && !Array.isArray(s.args) ? (s.args as Json) : {};
      const working = Math.max(0, s.ms / 1000);
      const begin = Number.isFinite(start) && Number.isFinite(t) ? Math.max(0, (t - start) / 1000 - working) : 0;
      return {
        uuid: `event_${tag}_${s.step}`, event: 'tool', timestamp: s.t, working_start: begin, type: 'function', id: `call_${tag}_${s.step}`, function: s.tool, arguments: args,
        result: s.text, events: [], completed: s.t, working_time: working,
        error: s.ok === false ? { type: 'parsing', message: s.text.split('\n')[0] } : null,
      };
    });
}

/** Inspect's generate config of a run: the effort and temperature it was played with. */
function generateConfig(meta: EpisodeMeta | null): Json {
  const effort = meta?.effort ?? null;
  return {
    ...(effort && ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'].includes(effort) ? { reasoning_effort: effort } : {}),
    ...(meta?.temperature !== null && meta?.temperature !== undefined ? { temperature: meta.temperature } : {}),
  };
}

/** Inspect's stderr metric: the sample standard deviation over the square root of n (0 for n < 2). */
function stderrOf(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = values.reduce((a, b) => a + b, 0) / n;
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (n - 1) / n);
}

const CAP_LIMIT: Record<string, string> = { max_cost_usd: 'cost', max_tokens: 'token', max_messages: 'message', max_wall_s: 'time' };

async function sample(path: string, traj: Trajectory, task: KindTask, opts: InspectExportOptions, model: string): Promise<{ sample: Json; scores: Record<string, EpisodeScore> }> {
  const meta = readMeta(metaPathOf(path));
  const kind = task.spec.kind;
  const scores: Record<string, EpisodeScore> = {};
  for (const s of scorersFor(kind, opts.scorers)) scores[s.name] = await s.score({ path, traj, task, grader: opts.grader });
  // The sample's own tag in every id (messages, tool calls, events): unique across epochs and logs.
  const tag = createHash('sha256').update(`${path}\u0000${traj.header?.started ?? ''}`).digest('hex').slice(0, 12);
  const attachments: Record<string, string> = {};
  const images = opts.images === false ? new Map<number, Uint8Array>() : await replayImages(traj, task, await opts.grader());
  const msgs = messages(traj, kind, model, tag, images, attachments);
  const last = [...msgs].reverse().find((m) => m.role === 'assistant') ?? { role: 'assistant', content: '' };
  const end = traj.end;
  const started = traj.header?.started ?? null;
  const wall = started && end ? (Date.parse(end.t) - Date.parse(started)) / 1000 : null;
  const capLimit = end?.cap && traj.header?.caps ? { type: CAP_LIMIT[end.cap] ?? 'custom', limit: traj.header.caps[end.cap] ?? 0 } : null;
  const usage = usageOf(meta);
  return {
    scores,
    sample: {
      id: task.spec.task_id,
      uuid: `sample_${tag}`,
      epoch: meta?.run ?? 1,
      input: traj.steps.find((s) => s.step === 0)?.text ?? '',
      target: '',
      messages: msgs,
      output: { model, choices: [{ message: last, stop_reason: 'tool_calls' }], completion: '', usage },
      scores: Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, { value: v.value, answer: v.answer, explanation: v.explanation, metadata: v.metadata, history: [] }])),
      metadata: {
        task: taskEntry(opts.tasksDir, task.spec.task_id),
        player: traj.header?.player ?? null,
        protocol: traj.header?.protocol ?? null,
        seed: traj.header?.seed ?? null,
        end_reason: end?.reason ?? null,
        ending: end?.ending ?? null,
        cap: end?.cap ?? null,
        calls_used: end?.calls_used ?? traj.steps.filter((s) => s.step > 0).length,
        trajectory: path,
        images: opts.images === false ? 'left out (tool results carry their text)' : 'replayed from the logged calls (not kept in trajectories)',
      },
      store: {},
      events: toolEvents(traj, tag),
      model_usage: { [model]: usage },
      role_usage: {},
      attachments,
      started_at: started,
      completed_at: end?.t ?? null,
      total_time: wall,
      working_time: meta?.wall_s ?? wall,
      turn_count: meta?.turns ?? null,
      limit: capLimit,
    },
  };
}


/** The eval logs of a set of trajectories: one per (model, kind family). */
export async function exportInspect(paths: readonly string[], opts: InspectExportOptions): Promise<InspectExport> {
  const problems: string[] = [];
  const groups = new Map<string, { model: string; family: string; config: Json; samples: Json[]; scores: Record<string, number[]>; started: string[]; ended: string[]; complete: boolean; usage: Json }>();
  const tasks = new Map<string, KindTask>();
  let done = 0;
  for (const path of paths) {
    if (opts.signal?.aborted) throw new Error('cancelled');
    opts.onProgress?.(done++, paths.length, path);
    const traj = readTrajectory(path);
    if (!traj.header) {
      problems.push(`${path}: no header line (not a trajectory)`);
      continue;
    }
    try {
      let task = tasks.get(traj.header.task);
      if (!task) {
        task = await loadAnyTask(traj.header.task, { tasksDir: opts.tasksDir });
        tasks.set(traj.header.task, task);
      }
      const meta = readMeta(metaPathOf(path));
      const model = modelName(traj, meta);
      const family = kindModule(task.spec.kind).family;
      const config = generateConfig(meta);
      const key = `${model}\0${JSON.stringify(config)}\0${family}`;
      const g = groups.get(key) ?? { model, family, config, samples: [], scores: {}, started: [], ended: [], complete: true, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } };
      const s = await sample(path, traj, task, opts, model);
      g.samples.push(s.sample);
      for (const [k, v] of Object.entries(s.scores)) (g.scores[k] ??= []).push(v.value);
      g.started.push(traj.header.started);
      if (traj.end) g.ended.push(traj.end.t);
      else g.complete = false;
      const u = (s.sample.model_usage as Record<string, Json>)[model];
      for (const k of ['input_tokens', 'output_tokens', 'total_tokens'] as const) g.usage[k] = (g.usage[k] as number) + (u[k] as number);
      groups.set(key, g);
    } catch (e) {
      problems.push(`${path}: ${(e as Error).message}`);
    }
  }
  opts.onProgress?.(done, paths.length, '');
  const logs: InspectLogFile[] = [];
  for (const g of groups.values()) {
    const id = createHash('sha256').update(`${g.model}/${JSON.stringify(g.config)}/${g.family}/${g.samples.map((s) => `${String(s.id)}#${String(s.epoch)}`).join(',')}`).digest('base64url').slice(0, 22);
    const created = [...g.started].sort()[0] ?? new Date().toISOString();
    const ids = [...new Set(g.samples.map((s) => String(s.id)))];
    const epochs = Math.max(1, ...g.samples.map((s) => Number(s.epoch)));
    const log: Json = {
      version: 2,
      status: g.complete ? 'success' : 'started',
      eval: {
        eval_id: id, run_id: id, created, task: `splatlab/${g.family}`, task_id: `${g.family}-${id.slice(0, 8)}`, task_version: 0,
        task_attribs: {}, task_args: {}, task_args_passed: {},
        dataset: { name: g.family, location: opts.tasksDir, samples: ids.length, sample_ids: ids, shuffled: false },
        model: g.model, model_generate_config: g.config, model_args: {}, config: { epochs, epochs_reducer: ['mean'] }, packages: { splatlab: opts.version },
        scorers: Object.keys(g.scores).map((name) => ({ name, options: {}, metrics: [{ name: 'mean', options: {} }, { name: 'stderr', options: {} }], metadata: {} })),
        metadata: { exported_by: 'splatlab export inspect' },
      },
      plan: { name: 'plan', steps: [{ solver: 'splatlab_agent', params: {}, params_passed: {} }], config: g.config },
      results: {
        total_samples: g.samples.length,
        completed_samples: g.ended.length,
        scores: Object.entries(g.scores).map(([name, values]) => ({ name, scorer: name, params: {}, scored_samples: values.length, metrics: { mean: { name: 'mean', value: meanOrNull(values) ?? 0, params: {} }, stderr: { name: 'stderr', value: stderrOf(values), params: {} } } })),
      },
      stats: { started_at: created, completed_at: [...g.ended].sort().pop() ?? '', model_usage: { [g.model]: g.usage }, role_usage: {}, connection_limit_history: [] },
      invalidated: false,
      tags: [],
      metadata: {},
      samples: g.samples,
    };
    logs.push({ name: `${created.replace(/[:.]/g, '-')}_${g.family}_${id}.json`, log });
  }
  return { logs, problems };
}
