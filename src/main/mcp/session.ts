// One MCP session = one episode. Builds a low-level MCP Server whose tools are the episode's kind's
// tools (SplatBench's ten before a task is chosen; the list changes, with a notification, on start) (JSON Schema generated from the same zod schemas the environment validates with) plus
// `start_episode` when the server was not started for a fixed task.
// Inputs: the task folder, a shared grader, where logs go. Outputs: tool results as MCP content
// (the result text with its budget footer, and each PNG as image content).
// Invariants: arguments are handed to the environment unvalidated, so an invalid call costs a
// call exactly as in the environment, except what no tool can take (a number beyond 2^53 - 1, a
// malformed request_id), refused before any charge; a call with a `request_id` is charged at most
// once (a retry, or get_result, answers from the episode's ledger: docs/SECURITY.md,
// "Exactly-once calls"); nothing but a ToolOut's text and image ever leaves (the held-out grade
// stays in the trajectory log); each session owns its own episode and log writer.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolRequest, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RequestIdSchema, unsafeNumberAt } from '../../shared/env/request-id';
import { defaultKind, kindModule } from '../../shared/kinds/registry';
import type { TaskKind } from '../../shared/task/schema';
import type { ToolOut } from '../env/tool-out';
import { CapMeter, stepCapped } from '../env/capped';
import type { EpisodeCaps } from '../../shared/env/caps';
import type { KindEnv, KindTask } from '../kinds/kind';
import { loadAnyTask, mainKind } from '../kinds/registry';
import type { EnvGrader } from '../env/types';
import type { WorkerPool } from '../workers/pool';
import { readSpecHead, taskIds } from '../tasks/load';
import { stamp } from './stamp';
import type { DeferredGrades } from '../workers/grade-queue';
import type { AsyncViewRenderer } from '../../shared/raster/types';

export interface McpSessionDeps {
  tasksDir: string;
  /**
   * The process's loaded tasks (a TaskRepository's getAny): each task is read and decoded once, and
   * its reference sheet drawn once, however many sessions start it; default a fresh load per start.
   */
  loadTask?: (taskId: string) => Promise<KindTask>;
  /** The process's one grader (shared by every session, created on first use). */
  grader: () => Promise<EnvGrader>;
  /** The lab's worker pool, for the kinds' own jobs (src/main/kinds/jobs.ts); default the calling thread. */
  pool?: WorkerPool;
  /** Folder of the trajectory logs (created on the first episode). */
  logDir: string;
  /** Play this task; without it the client picks one with start_episode. */
  task?: string;
  version: string;
  /** Diagnostics (stderr in stdio mode); never the player's results. */
  log?: (line: string) => void;
  /** The lab's renderer of observation views (serve --mcp: the lab's pool or GPU); default the calling thread. */
  viewRenderer?: AsyncViewRenderer;
  /** Per-episode caps (messages = tool calls, wall time); an episode at a cap ends as truncated. */
  caps?: EpisodeCaps;
  /** Milliseconds now, for the idle timeout (tests pass their own clock); default Date.now. */
  clock?: () => number;
  /**
   * The process's deferred hidden grades (docs/PERFORMANCE.md, "MCP under load"): with them a call
   * is answered before its step's grade, grades yield to calls and coalesce to an episode's latest
   * scene; the end record still waits for them. Without: each edit is graded inline.
   */
  grades?: DeferredGrades;
}

export interface McpSession {
  server: Server;
  /** The live episode's log, once one has started. */
  logPath(): string | null;
  /** The clock's time of the last request of this session, or now while a call is in flight (for the idle timeout). */
  lastActivity(): number;
  close(): void;
}

const START = 'start_episode';
const RESULT = 'get_result';

/** The optional request id every episode tool takes (JSON Schema of the one zod schema). */
const REQUEST_ID_PROPERTY = z.toJSONSchema(RequestIdSchema) as Record<string, unknown>;

/** A tool's schema with the optional request_id beside its own arguments. */
function withRequestId(parameters: Record<string, unknown>): Tool['inputSchema'] {
  const properties = (parameters.properties ?? {}) as Record<string, unknown>;
  return { ...parameters, type: 'object', properties: { ...properties, request_id: REQUEST_ID_PROPERTY } } as Tool['inputSchema'];
}

/** start_episode first (it returns the first observation), then the task's tools. */
function toolList(fixed: string | undefined, tasks: string[], kind: TaskKind): Tool[] {
  const tools: Tool[] = kindModule(kind).toolSpecs().map((t) => ({ name: t.name, description: t.description, inputSchema: withRequestId(t.parameters) }));
  const taskId = fixed ? { type: 'string', enum: [fixed], description: 'This server plays only this task (may be left out).' } : { type: 'string', enum: tasks, description: 'Task id' };
  const start: Tool = {
    name: START,
    description: 'Start the episode of this session (once per session; free, not a tool call of the episode). Returns the first observation: the reference sheet and the budgets.',
    inputSchema: { type: 'object', properties: { task_id: taskId }, ...(fixed ? {} : { required: ['task_id'] }), additionalProperties: false },
  };
  const result: Tool = {
    name: RESULT,
    description: 'Free: the stored result of the tool call sent with this request_id (after a lost reply or a dropped connection), or an answer that this episode never received it, so sending it again is safe and is charged once.',
    inputSchema: { type: 'object', properties: { request_id: REQUEST_ID_PROPERTY }, required: ['request_id'], additionalProperties: false },
  };
  return [start, ...tools, result];
}

/** The call's own arguments and its request id; a malformed id or an unusable number is refused. */
function splitCall(args: Record<string, unknown> | undefined): { args: Record<string, unknown>; requestId?: string } | { refused: string } {
  const { request_id: given, ...rest } = args ?? {};
  const bad = unsafeNumberAt(rest);
  if (bad) return { refused: `${bad}; nothing was charged` };
  if (given === undefined) return { args: rest };
  const id = RequestIdSchema.safeParse(given);
  if (!id.success) return { refused: `request_id: ${id.error.issues[0].message}; nothing was charged` };
  return { args: rest, requestId: id.data };
}

/**
 * MCP content of one environment result: the text (with its footer), then the PNG if any; the
 * step's structured info (ok, step, ids, budgets: public data only) as structuredContent.
 */
export function toolContent(out: ToolOut): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: out.text }];
  if (out.image) content.push({ type: 'image', data: Buffer.from(out.image).toString('base64'), mimeType: 'image/png' });
  return { content, structuredContent: { ...out.info, ...(out.recalled ? { recalled: true } : {}) }, isError: out.info.outcome.status !== 'ok' };
}

const refusal = (text: string): CallToolResult => ({ content: [{ type: 'text', text: `ERROR: ${text}` }], isError: true });

export function createMcpSession(deps: McpSessionDeps): McpSession {
  const server = new Server({ name: 'splatlab', version: deps.version }, { capabilities: { tools: { listChanged: true } } });
  let env: KindEnv | null = null;
  let kind: TaskKind | null = null;
  let starting: Promise<ToolOut> | null = null;
  let log: string | null = null;
  let meter: CapMeter | null = null;
  const now = deps.clock ?? Date.now;
  let last = now();
  /** Tool calls in flight: a session is idle only when none is, so a slow call is never cut off. */
  let calling = 0;

  // A server for one task lists that task's tools from the start; otherwise the default kind's
  // (the registry's first: SplatBench's) until a start.
  const fixedKind = (): TaskKind => {
    if (deps.task === undefined) return defaultKind();
    try {
      return readSpecHead(deps.tasksDir, deps.task).kind;
    } catch {
      return defaultKind();
    }
  };

  const player = (): string => {
    const c = server.getClientVersion();
    return c ? `${c.name}/${c.version}` : 'mcp-client';
  };

  const start = async (taskId: string): Promise<ToolOut> => {
    const task = await (deps.loadTask ? deps.loadTask(taskId) : loadAnyTask(taskId, { tasksDir: deps.tasksDir }));
    mkdirSync(deps.logDir, { recursive: true });
    log = join(deps.logDir, `${task.spec.task_id}-${stamp(new Date())}-${randomBytes(4).toString('hex')}.jsonl`);
    const reset = await mainKind(task).reset(task, {
      grader: await deps.grader(),
      ...(deps.grades ? { deferHiddenGrades: deps.grades.queue, coalesceHiddenGrades: true } : {}),
      log,
      protocol: 'agent',
      player: player(),
      version: deps.version,
      ...(deps.caps ? { headerExtra: { caps: { ...deps.caps } } } : {}),
      ...(deps.pool ? { pool: deps.pool } : {}),
      ...(deps.viewRenderer ? { viewRenderer: deps.viewRenderer } : {}),
    });
    env = reset.env;
    meter = new CapMeter(deps.caps);
    if (kind !== task.spec.kind) {
      kind = task.spec.kind;
      void server.sendToolListChanged().catch(() => undefined);
    }
    deps.log?.(`episode of ${task.spec.task_id} for ${player()} -> ${log}`);
    return reset.obs;
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList(deps.task, deps.task ? [] : taskIds(deps.tasksDir), kind ?? fixedKind()) }));

  const begin = async (taskId: string): Promise<CallToolResult> => {
    starting = start(taskId);
    try {
      return toolContent(await starting);
    } catch (e) {
      starting = null;
      return refusal((e as Error).message);
    }
  };

  const callTool = async (req: CallToolRequest): Promise<CallToolResult> => {
    const { name, arguments: args } = req.params;
    if (name === START) {
      if (starting) return refusal('this session already has an episode (one episode per MCP session)');
      const taskId = (args as { task_id?: unknown } | undefined)?.task_id ?? deps.task;
      if (typeof taskId !== 'string') return refusal('start_episode needs task_id (a string)');
      if (deps.task !== undefined && taskId !== deps.task) return refusal(`this server plays only task '${deps.task}'`);
      return begin(taskId);
    }
    if (!starting) {
      if (deps.task === undefined) return refusal(`no episode yet: call ${START} first`);
      const first = await begin(deps.task);
      if (first.isError) return first;
    }
    await starting;
    if (!env || !meter) return refusal('the episode failed to start');
    const call = splitCall(args);
    if ('refused' in call) return refusal(call.refused);
    if (name === RESULT) {
      if (!call.requestId) return refusal(`${RESULT} needs request_id`);
      const known = env.recall(call.requestId);
      if (!known) return { content: [{ type: 'text', text: `No call with request_id '${call.requestId}' reached this episode: send it again (it will be charged once).` }], structuredContent: { found: false }, isError: false };
      return toolContent(await known);
    }
    try {
      return toolContent(await stepCapped(env, { tool: name, args: call.args }, meter, call.requestId));
    } catch (e) {
      // Not dead: stepCapped answers a failed call itself (failedOut), but a cap's truncation record
      // that cannot be written (a full disk) still rejects, and the words say so.
      return refusal((e as Error).message);
    }
  };
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    last = now();
    calling += 1;
    const ended = deps.grades?.activity.begin();
    try {
      return await callTool(req);
    } finally {
      ended?.();
      calling -= 1;
      last = now();
    }
  });

  return {
    server,
    logPath: () => log,
    lastActivity: () => (calling > 0 ? now() : last),
    close: () => {
      env?.close();
      env = null;
    },
  };
}
