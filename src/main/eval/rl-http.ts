// A tiny HTTP JSON protocol over the same episodes, for RL trainers (TRL's environment_factory
// and the like): POST /reset, /step, /reward, /close and GET /tools on loopback, bearer token.
// Inputs: JSON bodies (documented in docs/AGENTS.md). Outputs: JSON with the environment's text,
// the PNG as base64, done, budgets, and after the end the benchmark reward clip(score/100, 0, 1)
// beside the training reward clip((score + 50) / 150, 0, 1).
// Invariants: before the end no reward, score or held-out metric is ever sent; each episode has
// its own SplatEnv and trajectory log; an invalid call costs a call as in the environment, except
// what no tool can take (numbers beyond 2^53 - 1), refused with 400 before any charge; a /step
// with a request_id is charged at most once (a retry or /result answers from the episode's
// ledger); every request passes the lab's one front door (src/main/transport/door.ts): a
// malformed URL is a 400, the token is checked first, a body over 4 MiB is a 413.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import type { ToolOut } from '../env/tool-out';
import { CapMeter, stepCapped } from '../env/capped';
import { EpisodeCapsSchema, type EpisodeCaps } from '../../shared/env/caps';
import type { KindEnv, KindTask } from '../kinds/kind';
import { loadAnyTask, mainKind } from '../kinds/registry';
import { taskRegistryAsync } from '../kinds/task-registry';
import type { EnvGrader } from '../env/types';
import type { WorkerPool } from '../workers/pool';
import { stamp } from '../mcp/stamp';
import { RequestIdSchema, ToolArgsSchema } from '../../shared/env/request-id';
import { BodyTooLarge, frontDoor, readBody, sameToken, sendJson, SERVER_OPTIONS, tuneServer } from '../transport/door';
import { agentTools } from './episode';
import type { DeferredGrades } from '../workers/grade-queue';
import { defaultKind, KIND_MODULES } from '../../shared/kinds/registry';
import { paramsShapeProblem } from '../services/dispatch';

export interface RlDeps {
  tasksDir: string;
  grader: () => Promise<EnvGrader>;
  /** The lab's worker pool, for the kinds' own jobs (src/main/kinds/jobs.ts); default the calling thread. */
  pool?: WorkerPool;
  logDir: string;
  version: string;
  /** Caps of every episode (a reset's own caps win); default none. */
  caps?: EpisodeCaps;
  /** Seconds without a request after which an episode is closed (its log stays resumable); default 1800. */
  idleTimeoutS?: number;
  /** Milliseconds now, for the idle timeout (tests pass their own clock); default Date.now. */
  clock?: () => number;
  /** How often idle episodes are looked for; default a quarter of the timeout, 50 ms to 60 s. */
  sweepMs?: number;
  /** Deferred hidden grades, as McpSessionDeps.grades (src/main/mcp/session.ts); without: inline. */
  grades?: DeferredGrades;
}

export interface RlServer {
  url: string;
  close(): Promise<void>;
}

export const MAX_BODY = 4 * 1024 * 1024;
const MAX_EPISODES = 256;

const ResetBody = z.strictObject({
  task_id: z.string().min(1).max(200),
  player: z.string().min(1).max(120).optional(),
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  caps: EpisodeCapsSchema.optional(),
});
const StepBody = z.strictObject({ episode_id: z.string().min(1), tool: z.string().max(100), args: ToolArgsSchema.optional(), request_id: RequestIdSchema.optional() });
const ResultBody = z.strictObject({ episode_id: z.string().min(1), request_id: RequestIdSchema });
const IdBody = z.strictObject({ episode_id: z.string().min(1) });

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

interface Live {
  env: KindEnv;
  task: KindTask;
  log: string;
  meter: CapMeter;
  lastUsed: number;
  /** Calls of this episode in flight: a slow call is never cut off by the idle sweep. */
  busy: number;
}

export const DEFAULT_IDLE_TIMEOUT_S = 1800;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, MAX_BODY).catch((e: unknown) => {
    throw e instanceof BodyTooLarge ? new HttpError(413, e.message) : e;
  });
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text.trim() ? (JSON.parse(text) as unknown) : {};
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
  // The same depth and size limits as every LabApi row (issue 38: args nested 100,000 deep were
  // taken, and logged as "[object Object]").
  const problem = paramsShapeProblem(json);
  if (problem) throw new HttpError(400, `the request's ${problem}`);
  return json;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new HttpError(400, `${i.path.join('.') || 'body'}: ${i.message}`);
  }
  return r.data;
}

function observation(out: ToolOut, e: Live): Record<string, unknown> {
  const i = out.info;
  const o: Record<string, unknown> = {
    text: out.text, error: i.outcome.status !== 'ok', outcome: i.outcome, done: out.done,
    terminated: i.ending === 'terminated', truncated: i.ending === 'truncated', end_reason: i.endReason,
    step: i.step, ...(i.ids ? { ids: i.ids } : {}), budgets: e.env.publicBudgets(), ...(out.recalled ? { recalled: true } : {}),
  };
  if (out.image) o.image_png_base64 = Buffer.from(out.image).toString('base64');
  return o;
}

function rewards(e: Live): Record<string, unknown> {
  const g = e.env.finalGrade();
  return g ? { reward: g.reward, training_reward: g.trainingReward } : { reward: null, training_reward: null };
}

export async function startRlServer(deps: RlDeps, opts: { port?: number; token: string }): Promise<RlServer> {
  const live = new Map<string, Live>();
  const idled = new Set<string>();
  const idleS = deps.idleTimeoutS ?? DEFAULT_IDLE_TIMEOUT_S;
  const clock = deps.clock ?? Date.now;
  const get = (id: string): Live => {
    const e = live.get(id);
    if (!e) throw new HttpError(404, idled.has(id) ? `episode '${id}' was closed after ${idleS} s without a request (its log can be resumed)` : `no episode '${id}' (closed, or the server restarted)`);
    e.lastUsed = clock();
    return e;
  };
  /** Runs one call of an episode; its idle clock restarts when the call ends. */
  const inFlight = async <T>(e: Live, call: () => Promise<T>): Promise<T> => {
    e.busy += 1;
    try {
      return await call();
    } finally {
      e.busy -= 1;
      e.lastUsed = clock();
    }
  };
  // Idle episodes are closed so an abandoned trainer does not hold logs and memory for ever.
  const sweep = setInterval(() => {
    const now = clock();
    for (const [id, e] of live) {
      if (e.busy > 0 || now - e.lastUsed < idleS * 1000) continue;
      void e.env.close();
      live.delete(id);
      idled.add(id);
    }
  }, deps.sweepMs ?? Math.min(60_000, Math.max(50, (idleS * 1000) / 4)));
  sweep.unref();

  const routes: Record<string, (body: unknown, query: URLSearchParams) => Promise<unknown>> = {
    'POST /reset': async (body) => {
      const b = parse(ResetBody, body);
      if (live.size >= MAX_EPISODES) throw new HttpError(503, `too many open episodes (at most ${MAX_EPISODES}); close some with /close`);
      const task = await loadAnyTask(b.task_id, { tasksDir: deps.tasksDir }).catch((err: Error) => {
        throw new HttpError(404, err.message);
      });
      const id = randomBytes(8).toString('hex');
      mkdirSync(deps.logDir, { recursive: true });
      const log = join(deps.logDir, `${task.spec.task_id}-${stamp(new Date())}-${id}.jsonl`);
      const caps = b.caps ?? deps.caps;
      const headerExtra = { ...(b.seed !== undefined ? { seed: b.seed } : {}), ...(caps ? { caps: { ...caps } } : {}) };
      const deferred = deps.grades ? { deferHiddenGrades: deps.grades.queue, coalesceHiddenGrades: true } : {};
      const { env, obs } = await mainKind(task).reset(task, { grader: await deps.grader(), ...deferred, log, protocol: 'agent', player: b.player ?? 'rl-client', version: deps.version, headerExtra, ...(deps.pool ? { pool: deps.pool } : {}) });
      const e: Live = { env, task, log, meter: new CapMeter(caps), lastUsed: clock(), busy: 0 };
      live.set(id, e);
      return { episode_id: id, task_id: task.spec.task_id, kind: task.spec.kind, seed: b.seed ?? null, ...observation(obs, e), tools: agentTools(task.spec.kind) };
    },
    'POST /step': async (body) => {
      const b = parse(StepBody, body);
      const e = get(b.episode_id);
      const ended = deps.grades?.activity.begin();
      const out = await inFlight(e, () => stepCapped(e.env, { tool: b.tool, args: b.args ?? {} }, e.meter, b.request_id)).finally(() => ended?.());
      return { ...observation(out, e), ...rewards(e) };
    },
    'POST /result': async (body) => {
      const b = parse(ResultBody, body);
      const e = get(b.episode_id);
      const known = e.env.recall(b.request_id);
      if (!known) return { found: false };
      return { found: true, ...observation(await inFlight(e, () => known), e), ...rewards(e) };
    },
    'POST /reward': async (body) => {
      const e = get(parse(IdBody, body).episode_id);
      if (!e.env.done) throw new HttpError(409, 'the episode is not over yet: the reward is terminal (call submit first)');
      return { done: true, ...rewards(e) };
    },
    'POST /close': async (body) => {
      const id = parse(IdBody, body).episode_id;
      const e = get(id);
      e.env.close();
      live.delete(id);
      return { closed: true };
    },
    'GET /tools': async (_body, query) => {
      const kind = query.get('kind') ?? defaultKind();
      const kinds = KIND_MODULES.flatMap((m) => m.kinds);
      if (!kinds.includes(kind)) throw new HttpError(400, `unknown kind '${kind.slice(0, 40)}' (kinds: ${kinds.join(', ')})`);
      return { tools: agentTools(kind) };
    },
    'GET /tasks': async () => ({ tasks: (await taskRegistryAsync(deps.tasksDir)).tasks }),
  };

  let port = 0;
  const http = createServer(SERVER_OPTIONS, (req, res) => {
    const door = frontDoor(req, { port: () => port, credential: (given) => (sameToken(given, opts.token) ? true : null) });
    if (!door.ok) return reply(res, door.status, { error: door.status === 401 ? 'a valid token is required (Authorization: Bearer TOKEN)' : door.text });
    const route = routes[`${req.method} ${door.target.path}`];
    if (!route) return reply(res, 404, { error: `unknown route ${req.method} ${door.target.path}; see docs/AGENTS.md` });
    readJson(req)
      .then((body) => route(body, door.target.query))
      .then((out) => reply(res, 200, out))
      .catch((e: Error) => reply(res, e instanceof HttpError ? e.status : 500, { error: e.message }));
  });
  tuneServer(http);
  port = await new Promise<number>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, '127.0.0.1', () => {
      const a = http.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        for (const e of live.values()) e.env.close();
        live.clear();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/** One answer: 413 closes the connection (the body was not read), 503 asks the client to retry. */
function reply(res: ServerResponse, status: number, value: unknown): void {
  const headers: Record<string, string> = status === 413 ? { connection: 'close' } : status === 503 ? { 'retry-after': '1' } : {};
  sendJson(res, status, value, headers);
}

export const newToken = (): string => randomBytes(24).toString('base64url');
