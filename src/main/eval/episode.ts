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
import type { KindTask } from '../kinds/kind';
import { mainKind } from '../kinds/registry';
import { readTrajectory } from '../env/trajectory';
import type { EnvGrader, EnvImages } from '../env/types';
import type { ModelClient, ToolResult, ToolSpec } from './clients/types';
import { costUsd, type EvalConfig } from './config';
import { readMeta, writeMeta, metaPathOf, type EpisodeMeta } from './meta';
import { promptsFor } from './prompt';
import { playerName, type ModelSpec } from './spec';

export interface EpisodeJob {
  jobId: string;
  task: KindTask;
  run: number;
  spec: ModelSpec;
  log: string;
}

export interface EpisodeDeps {
  grader: EnvGrader;
  images?: EnvImages;
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

export async function runEpisode(job: EpisodeJob, deps: EpisodeDeps): Promise<EpisodeMeta> {
  const metaPath = metaPathOf(job.log);
  const state = logState(job.log);
  const prior = state === 'none' ? null : readMeta(metaPath);
  const meta: EpisodeMeta = { ...(prior ?? freshMeta(job)), status: 'running', error: null, attempts: (prior?.attempts ?? 0) + 1 };
  const t0 = Date.now();
  const wall0 = meta.wall_s;
  const save = (): void => {
    meta.wall_s = wall0 + (Date.now() - t0) / 1000;
    meta.cost_usd = costUsd(deps.config, job.spec.model, meta.input_tokens, meta.output_tokens);
    writeMeta(metaPath, meta);
  };
  mkdirSync(dirname(job.log), { recursive: true });
  const common = { grader: deps.grader, protocol: 'agent' as const, player: meta.player, ...(deps.images ? { images: deps.images } : {}), ...(deps.version ? { version: deps.version } : {}) };
  const kind = mainKind(job.task);
  const { env, obs } = state === 'none' ? await kind.reset(job.task, { ...common, log: job.log }) : await kind.reset(job.task, { ...common, resumeFrom: job.log });
  try {
    if (!env.done) {
      const client = deps.client();
      const prompts = promptsFor(job.task.spec.kind);
      client.start(prompts.system, obs.text, obs.image, agentTools(job.task.spec.kind));
      save();
      let idle = 0;
      while (!env.done) {
        if (deps.signal?.aborted) throw new Error('cancelled');
        const turn = await client.next();
        meta.turns += 1;
        meta.input_tokens += turn.inputTokens;
        meta.output_tokens += turn.outputTokens;
        meta.retries += turn.retries;
        meta.model_version = turn.model ?? meta.model_version;
        if (turn.calls.length === 0) {
          meta.idle_turns += 1;
          idle += 1;
          if (idle > deps.config.max_idle_turns) {
            await env.step(kindModule(job.task.spec.kind).giveUp);
            meta.auto_submitted = true;
          } else client.say(prompts.reminder);
          save();
          continue;
        }
        idle = 0;
        const results: ToolResult[] = [];
        for (const call of turn.calls) {
          const out = await env.step({ tool: call.name, args: call.args });
          if (out.info.charged && !out.info.ok) meta.invalid_calls += 1;
          results.push({ id: call.id, text: out.text, ...(out.image ? { image: out.image } : {}) });
        }
        client.results(results);
        save();
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
