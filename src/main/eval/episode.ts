// One model episode: a live episode of the task's kind (SplatEnv for SplatBench) with its trajectory log driven by a ModelClient, resumed from the
// log when an earlier attempt broke. Inputs: task, shared grader, client, model spec, paths.
// Output: the final EpisodeMeta (also on disk beside the log).
// Invariants: every tool call the model makes goes to the environment as it came (so invalid
// calls cost a call exactly as in the environment); API retries never touch the episode; an API
// failure leaves the log resumable and the meta marked broken; nothing hidden reaches the model.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultKind, kindModule } from '../../shared/kinds/registry';
import type { TaskKind } from '../../shared/task/schema';
import type { KindEnv, KindTask } from '../kinds/kind';
import { mainKind } from '../kinds/registry';
import type { ToolOut } from '../env/tool-out';
import { LogWriteError, readTrajectory } from '../env/trajectory';
import type { ToolCall } from '../../shared/env/step';
import { exactlyOnce, newRequestId, type ExactlyOnceOptions } from '../../shared/api/exactly-once';
import type { EnvGrader } from '../env/types';
import { CapMeter } from '../env/capped';
import { loadConversation, saveConversation } from './conversation';
import type { ModelClient, ToolResult, ToolSpec } from '../models/clients/types';
import { costUsd, type EvalConfig } from '../models/config';
import { readMeta, writeMeta, metaPathOf, type EpisodeMeta } from '../models/meta';
import { promptsFor } from './prompt';
import { modelStream } from './model-stream';
import { episodeSeed, playerName, type ModelSpec } from '../models/spec';

export interface EpisodeJob {
  jobId: string;
  task: KindTask;
  run: number;
  spec: ModelSpec;
  log: string;
}

export interface EpisodeDeps {
  grader: EnvGrader;
  config: EvalConfig;
  client: () => ModelClient;
  version?: string;
  signal?: AbortSignal;
}

/**
 * A kind's tools as agents receive them (no `$schema` key: some OpenAI-compatible servers refuse
 * it); without a kind, the default kind's (src/shared/kinds/registry.ts defaultKind).
 */
export function agentTools(kind: TaskKind = defaultKind()): ToolSpec[] {
  return kindModule(kind).toolSpecs().map((t) => {
    const parameters = { ...t.parameters };
    delete parameters.$schema;
    return { name: t.name, description: t.description, parameters };
  });
}

export type LogState = 'none' | 'partial' | 'ended';

export function logState(log: string): LogState {
  if (!existsSync(log)) return 'none';
  const t = readTrajectory(log);
  if (!t.header) return 'none';
  return t.end ? 'ended' : 'partial';
}

function freshMeta(job: EpisodeJob): EpisodeMeta {
  return {
    job_id: job.jobId,
    task: job.task.spec.task_id,
    run: job.run,
    provider: job.spec.provider,
    model: job.spec.model,
    model_version: null,
    effort: job.spec.effort,
    temperature: job.spec.temperature,
    player: playerName(job.spec),
    status: 'running',
    error: null,
    turns: 0,
    idle_turns: 0,
    invalid_calls: 0,
    auto_submitted: false,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: null,
    retries: 0,
    wall_s: 0,
    attempts: 0,
    started: new Date().toISOString(),
    finished: null,
  };
}

/** Input tokens billed: the answered requests' and the estimate for requests whose answer was lost. */
const billedInput = (meta: EpisodeMeta): number => meta.input_tokens + (meta.lost_input_tokens ?? 0);

/**
 * A resumed attempt counts the requests an earlier attempt sent but never saw answered (its worker
 * was killed while they were in flight): the provider billed them, so they stay in the cost, each
 * at the last answered request's input tokens.
 */
function countLostRequests(meta: EpisodeMeta): void {
  const lost = (meta.requests ?? meta.turns) - meta.turns - (meta.lost_requests ?? 0);
  if (lost <= 0) return;
  meta.lost_requests = (meta.lost_requests ?? 0) + lost;
  meta.lost_input_tokens = (meta.lost_input_tokens ?? 0) + lost * (meta.last_input_tokens ?? 0);
}

export async function runEpisode(job: EpisodeJob, deps: EpisodeDeps): Promise<EpisodeMeta> {
  const metaPath = metaPathOf(job.log);
  const state = logState(job.log);
  const prior = state === 'none' ? null : readMeta(metaPath);
  // A partial log is a previous attempt even when its runner died before the first meta write
  // (the log's header and first record land before it), so it counts.
  const before = prior?.attempts ?? (state === 'partial' ? 1 : 0);
  const meta: EpisodeMeta = { ...(prior ?? freshMeta(job)), status: 'running', error: null, attempts: before + 1 };
  countLostRequests(meta);
  const t0 = Date.now();
  const wall0 = meta.wall_s;
  const save = (): void => {
    meta.wall_s = wall0 + (Date.now() - t0) / 1000;
    meta.cost_usd = costUsd(deps.config, job.spec.model, billedInput(meta), meta.output_tokens);
    writeMeta(metaPath, meta);
  };
  mkdirSync(dirname(job.log), { recursive: true });
  const seed = episodeSeed(job.spec, job.task.spec.task_id, job.run);
  meta.seed = seed;
  const caps = deps.config.caps;
  const headerExtra = { ...(seed !== null ? { seed } : {}), ...(caps ? { caps: { ...caps } } : {}) };
  const common = { grader: deps.grader, protocol: 'agent' as const, player: meta.player, headerExtra, ...(deps.version ? { version: deps.version } : {}) };
  // Caps count this attempt's wall time; tokens, cost and messages over every attempt (the meta's totals).
  const meter = new CapMeter(caps);
  const kind = mainKind(job.task);
  const { env, obs } = state === 'none' ? await kind.reset(job.task, { ...common, log: job.log }) : await kind.reset(job.task, { ...common, resumeFrom: job.log });
  try {
    if (!env.done) {
      const client = deps.client();
      const prompts = promptsFor(job.task.spec.kind);
      // A resumed episode continues the conversation saved after exactly the calls the log holds.
      const who = `${job.spec.provider}:${job.spec.model}`;
      const saved = state === 'partial' ? loadConversation(job.log) : null;
      const restored = saved !== null && saved.client === who && saved.steps === (env.currentInfo().step ?? 0) && client.restore?.(saved.state) === true;
      if (!restored) client.start(prompts.system, obs.text, obs.image, agentTools(job.task.spec.kind));
      // The process stream beside the log holds the conversation (model-stream.ts).
      const stream = modelStream(job.log, state === 'none');
      if (!restored) stream.opened(obs.text);
      if (state === 'partial') meta.resumed_conversation = restored;
      const keep = (): void => {
        if (client.snapshot) saveConversation(job.log, { steps: env.currentInfo().step ?? 0, client: who, state: client.snapshot() });
      };
      save();
      keep();
      let idle = 0;
      while (!env.done) {
        if (deps.signal?.aborted) throw new Error('cancelled');
        meter.messages = meta.turns;
        const cap = meter.reached({ tokens: billedInput(meta) + meta.output_tokens, cost_usd: costUsd(deps.config, job.spec.model, billedInput(meta), meta.output_tokens) });
        if (cap) {
          await meter.truncate(env, cap);
          meta.truncated_by = cap;
          break;
        }
        const sentAt = Date.now();
        // Counted before it is sent and its tokens saved as soon as it is answered, so a worker
        // killed while the request is in flight or while the calls run leaves its cost behind.
        meta.requests = (meta.requests ?? meta.turns) + 1;
        save();
        // A request the API refused (an error after its retries) was not answered and not billed.
        const turn = await client.next().catch((e: unknown) => {
          meta.requests = (meta.requests ?? 1) - 1;
          throw e;
        });
        meta.turns += 1;
        stream.reply(meta.turns, sentAt, turn);
        meta.input_tokens += turn.inputTokens;
        meta.output_tokens += turn.outputTokens;
        meta.last_input_tokens = turn.inputTokens;
        meta.retries += turn.retries;
        meta.model_version = turn.model ?? meta.model_version;
        save();
        if (turn.calls.length === 0) {
          meta.idle_turns += 1;
          idle += 1;
          if (idle > deps.config.max_idle_turns) {
            await stepOnce(env, kindModule(job.task.spec.kind).giveUp);
            meta.auto_submitted = true;
          } else {
            client.say(prompts.reminder);
            stream.said(meta.turns, prompts.reminder);
          }
          save();
          keep();
          continue;
        }
        idle = 0;
        const results: ToolResult[] = [];
        for (const call of turn.calls) {
          const out = await stepOnce(env, { tool: call.name, args: call.args });
          if (out.info.charged && !out.info.ok) meta.invalid_calls += 1;
          results.push({ id: call.id, text: out.text, ...(out.info.outcome.status !== 'ok' ? { isError: true } : {}), ...(out.image ? { image: out.image } : {}) });
        }
        client.results(results);
        stream.results(meta.turns, results);
        save();
        keep();
      }
    }
    meta.status = 'done';
    meta.finished = new Date().toISOString();
  } catch (e) {
    meta.status = 'broken';
    meta.error = (e as Error).message.slice(0, 500);
    throw e;
  } finally {
    env.close();
    save();
  }
  return meta;
}

/**
 * One model call with its own request id: a log write that failed (a full disk: nothing was
 * charged) is retried transparently with the same id, so the call is charged once and the run
 * goes on once space is back (docs/SECURITY.md, "Exactly-once calls").
 */
export function stepOnce(env: KindEnv, call: ToolCall, options: Partial<ExactlyOnceOptions> = {}): Promise<ToolOut> {
  const requestId = newRequestId();
  return exactlyOnce(
    () => env.step(call, requestId),
    async () => (await env.recall(requestId)) ?? null,
    { retryable: (e) => e instanceof LogWriteError, ...options },
  );
}
