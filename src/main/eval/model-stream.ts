// A model episode's process stream (issue 24 item 5; docs/STUDIES.md "Process log"): the same
// <log>.process.ndjson a participant's page fills, here holding the conversation turn by turn so
// Replay shows a model's timeline as it shows a person's. Per turn: the request sent and the
// reply (its tool calls, text excerpt, input and output tokens, latency); the tool results sent
// back; a reminder the runner added. Inputs: the trajectory path, the runner's turns. Output:
// `model.message` events (ProcessEventSchema) appended through the process writer (bounded there).
// Invariant: times are the lab's wall clock in epoch ms, the clock the trajectory's `t` uses.
import type { ModelTurn, ToolResult } from '../models/clients/types';
import { appendProcessEvents, restartProcessLog } from '../episodes/process-writer';

const TEXT_MAX = 240;

export interface ModelStream {
  /** The opening message (task observation) went to the model. */
  opened(text: string): void;
  /** A turn's reply came back, `sentAt` being when its request went out (epoch ms). */
  reply(turnNo: number, sentAt: number, turn: ModelTurn): void;
  /** The tool results of a turn went back to the model. */
  results(turnNo: number, results: readonly ToolResult[]): void;
  /** The runner's own message (a reminder after a turn without calls). */
  said(turnNo: number, text: string): void;
}

export function modelStream(log: string, fresh: boolean, now: () => number = Date.now): ModelStream {
  if (fresh) restartProcessLog(log);
  const put = (t: number, d: Record<string, string | number | boolean>): void => {
    try {
      appendProcessEvents(log, [{ t, e: 'model.message', d }]);
    } catch {
      // Descriptive only and acknowledged to no one: a full disk fails the run at its next log record.
    }
  };
  return {
    opened: (text) => put(now(), { role: 'user', turn: 0, text: text.slice(0, TEXT_MAX) }),
    reply: (turnNo, sentAt, turn) => {
      const t = now();
      put(t, {
        role: 'assistant',
        turn: turnNo,
        input_tokens: turn.inputTokens,
        output_tokens: turn.outputTokens,
        calls: turn.calls.length,
        tools: turn.calls.map((c) => c.name).join(' '),
        text: turn.text.slice(0, TEXT_MAX),
        latency_ms: Math.max(0, t - sentAt),
        retries: turn.retries,
      });
    },
    results: (turnNo, results) => put(now(), { role: 'tool', turn: turnNo, results: results.length, errors: results.filter((r) => r.isError).length }),
    said: (turnNo, text) => put(now(), { role: 'user', turn: turnNo, text: text.slice(0, TEXT_MAX) }),
  };
}
