// A scripted "model" for cheap batch runs, demos and tests: no network, a fixed plan per task
// kind (reassembly: nudge each group; builds: one blob, one render, submit; relation: 'front' for
// every trial of a task or block;
// search: turn, step, stop with 'red'; a static search question: stop with 'red' at once). Without tools it is a judge: mark 5 when an accepted
// answer appears in the response, else 1 (`scripted:garbage` replies with no mark at all).
// `scripted:slow` waits 100 ms per turn so a batch is slow enough to interrupt.
// `scripted:random` plays random calls drawn from the episode's seed (src/shared/env/random-player.ts).
// Invariant: deterministic for a given first observation and seed; reports zero tokens.
import { mulberry32, type Random } from '../../../shared/math/random';
import { randomCall } from '../../../shared/env/random-player';
import type { ModelCall, ModelClient, ModelTurn, ToolResult, ToolSpec } from './types';

export class ScriptedClient implements ModelClient {
  private plan: Omit<ModelCall, 'id'>[] = [];
  /** A call made on every turn after the plan (a relation block: one answer per trial). */
  private repeat: Omit<ModelCall, 'id'> | null = null;
  private turn = 0;
  private reply = 'done';
  private random: { rng: Random; tools: string[] } | null = null;

  constructor(private readonly name: string, private readonly seed: number | null = null) {}

  start(_system: string, text: string, _image: Uint8Array | readonly Uint8Array[] | undefined, tools: ToolSpec[]): void {
    this.turn = 0;
    this.reply = 'done';
    this.repeat = null;
    this.random = this.name === 'random' && tools.length > 0 ? { rng: mulberry32(this.seed ?? 0), tools: tools.map((t) => t.name) } : null;
    if (tools.length === 0) {
      this.plan = [];
      this.reply = this.name === 'garbage' ? 'I would rather not say.' : `Your mark: ${judgeMark(text)}`;
      return;
    }
    // A search episode: two moves, then stop with a fixed answer; a static question (the stop
    // tool alone: blind or start-view) is answered at once with the same fixed answer.
    if (tools.length === 1 && tools[0].name === 'stop') {
      this.plan = [{ name: 'stop', args: { answer: 'red' } }];
      return;
    }
    if (tools.some((t) => t.name === 'stop') && tools.some((t) => t.name === 'turn_left')) {
      this.plan = [{ name: 'turn_left', args: {} }, { name: 'move_forward', args: {} }, { name: 'stop', args: { answer: 'red' } }];
      return;
    }
    // A relation trial (the `answer` tool only): always 'front', a chance-level baseline.
    if (tools.some((t) => t.name === 'answer')) {
      this.plan = [];
      this.repeat = { name: 'answer', args: { relation: 'front' } };
      return;
    }
    const oneCall = /\b1 tool call\b/.test(text);
    const add = { name: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#808080', scale: 0.2 }, { pos: [0, 0, 0.3], color: '#a08060', scale: 0.1 }] } };
    this.plan = oneCall ? [add] : [add, { name: 'render_views', args: { views: [0] } }, { name: 'submit', args: {} }];
    this.turn = 0;
  }

  async next(): Promise<ModelTurn> {
    if (this.name === 'slow') await new Promise((r) => setTimeout(r, 100));
    if (this.random) {
      this.turn += 1;
      return { calls: [{ id: `call_${this.turn}`, ...randomCall(this.random.tools, this.random.rng) }], text: '', inputTokens: 0, outputTokens: 0, model: 'scripted-random', retries: 0 };
    }
    const step = this.plan[this.turn] ?? this.repeat ?? undefined;
    this.turn += 1;
    const calls = step ? [{ id: `call_${this.turn}`, ...step }] : [];
    return { calls, text: step ? '' : this.reply, inputTokens: 0, outputTokens: 0, model: `scripted-${this.name}`, retries: 0 };
  }

  results(_results: ToolResult[]): void {}

  say(_text: string): void {}
}

/** The scripted judge's mark: 5 when an accepted answer is a whole phrase of the response. */
function judgeMark(prompt: string): 1 | 5 {
  // The last such line: the E3VS prompt's few-shot examples come before the one to mark.
  const line = (key: string) => ([...prompt.matchAll(new RegExp(`^${key}: (.*)$`, 'gm'))].pop()?.[1] ?? '').toLowerCase();
  const answer = line('Answer');
  const accepted = [answer.replace(/ \(also correct: .*\)$/, ''), ...(/\(also correct: (.*)\)$/.exec(answer)?.[1].split(', ') ?? [])];
  const response = ` ${line('Response').replace(/[^a-z0-9 ]+/g, ' ')} `;
  return accepted.some((a) => a.trim() && response.includes(` ${a.trim()} `)) ? 5 : 1;
}
