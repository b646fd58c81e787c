// One MCP session = one episode. Builds a low-level MCP Server whose tools are the episode's kind's
// tools (SplatBench's ten before a task is chosen; the list changes, with a notification, on start) (JSON Schema generated from the same zod schemas the environment validates with) plus
// `start_episode` when the server was not started for a fixed task.
// Inputs: the task folder, a shared grader, where logs go. Outputs: tool results as MCP content
// (the result text with its budget footer, and each PNG as image content).
// Invariants: arguments are handed to the environment unvalidated, so an invalid call costs a
// call exactly as in the environment; nothing but a ToolOut's text and image ever leaves (the
// held-out grade stays in the trajectory log); each session owns its own episode and log writer.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { defaultKind, kindModule } from '../../shared/kinds/registry';
import type { TaskKind } from '../../shared/task/schema';
import type { ToolOut } from '../env/env';
import type { KindEnv } from '../kinds/kind';
import { loadAnyTask, mainKind } from '../kinds/registry';
import type { EnvGrader, EnvImages } from '../env/types';
import { readSpecHead, taskIds } from '../tasks/load';
import { stamp } from './stamp';
import type { AsyncViewRenderer } from '../../shared/kinds/search/render';

export interface McpSessionDeps {
  tasksDir: string;
  /** The process's one grader (shared by every session, created on first use). */
  grader: () => Promise<EnvGrader>;
  images?: EnvImages;
  /** Folder of the trajectory logs (created on the first episode). */
  logDir: string;
  /** Play this task; without it the client picks one with start_episode. */
  task?: string;
  version: string;
  /** Diagnostics (stderr in stdio mode); never the player's results. */
  log?: (line: string) => void;
  /** The lab's renderer of observation views (serve --mcp: the lab's pool or GPU); default the calling thread. */
  viewRenderer?: AsyncViewRenderer;
}

export interface McpSession {
  server: Server;
  /** The live episode's log, once one has started. */
  logPath(): string | null;
  close(): void;
}

const START = 'start_episode';

/** start_episode first (it returns the first observation), then the task's tools. */
function toolList(fixed: string | undefined, tasks: string[], kind: TaskKind): Tool[] {
  const tools: Tool[] = kindModule(kind).toolSpecs().map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters as Tool['inputSchema'] }));
  const taskId = fixed ? { type: 'string', enum: [fixed], description: 'This server plays only this task (may be left out).' } : { type: 'string', enum: tasks, description: 'Task id' };
  const start: Tool = {
    name: START,
    description: 'Start the episode of this session (once per session; free, not a tool call of the episode). Returns the first observation: the reference sheet and the budgets.',
    inputSchema: { type: 'object', properties: { task_id: taskId }, ...(fixed ? {} : { required: ['task_id'] }), additionalProperties: false },
  };
  return [start, ...tools];
}

/**
 * MCP content of one environment result: the text (with its footer), then the PNG if any; the
 * step's structured info (ok, step, ids, budgets: public data only) as structuredContent.
 */
export function toolContent(out: ToolOut): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: out.text }];
  if (out.image) content.push({ type: 'image', data: Buffer.from(out.image).toString('base64'), mimeType: 'image/png' });
  return { content, structuredContent: { ...out.info }, isError: !out.info.ok };
}

const refusal = (text: string): CallToolResult => ({ content: [{ type: 'text', text: `ERROR: ${text}` }], isError: true });

export function createMcpSession(deps: McpSessionDeps): McpSession {
  const server = new Server({ name: 'splatlab', version: deps.version }, { capabilities: { tools: { listChanged: true } } });
  let env: KindEnv | null = null;
  let kind: TaskKind | null = null;
  let starting: Promise<ToolOut> | null = null;
  let log: string | null = null;

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
    const task = await loadAnyTask(taskId, { tasksDir: deps.tasksDir });
    mkdirSync(deps.logDir, { recursive: true });
    log = join(deps.logDir, `${task.spec.task_id}-${stamp(new Date())}-${randomBytes(4).toString('hex')}.jsonl`);
    const reset = await mainKind(task).reset(task, {
      grader: await deps.grader(),
      log,
      protocol: 'agent',
      player: player(),
      version: deps.version,
      ...(deps.images ? { images: deps.images } : {}),
      ...(deps.viewRenderer ? { viewRenderer: deps.viewRenderer } : {}),
    });
    env = reset.env;
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

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
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
    if (!env) return refusal('the episode failed to start');
    return toolContent(await env.step({ tool: name, args: args ?? {} }));
  });

  return {
    server,
    logPath: () => log,
    close: () => {
      env?.close();
      env = null;
    },
  };
}
