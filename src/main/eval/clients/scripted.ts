// A scripted "model" for cheap batch runs, demos and tests: no network, a fixed plan per task
// kind (reassembly: nudge each group; builds: one blob, one render, submit; relation: 'front'). `scripted:slow`
// waits 100 ms per turn so a batch is slow enough to interrupt.
// Invariant: deterministic for a given first observation; reports zero tokens.
import type { ModelCall, ModelClient, ModelTurn, ToolResult, ToolSpec } from './types';

export class ScriptedClient implements ModelClient {
  private plan: Omit<ModelCall, 'id'>[] = [];
  private turn = 0;

  constructor(private readonly name: string) {}

  start(_system: string, text: string, _image: Uint8Array | undefined, tools: ToolSpec[]): void {
    this.turn = 0;
    // A relation trial (the `answer` tool only): always 'front', a chance-level baseline.
    if (tools.some((t) => t.name === 'answer')) {
      this.plan = [{ name: 'answer', args: { relation: 'front' } }];
      return;
    }
    const oneCall = /\b1 tool call\b/.test(text);
    const add = { name: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#808080', scale: 0.2 }, { pos: [0, 0, 0.3], color: '#a08060', scale: 0.1 }] } };
    this.plan = oneCall ? [add] : [add, { name: 'render_views', args: { views: [0] } }, { name: 'submit', args: {} }];
    this.turn = 0;
  }

  async next(): Promise<ModelTurn> {
    if (this.name === 'slow') await new Promise((r) => setTimeout(r, 100));
    const step = this.plan[this.turn];
    this.turn += 1;
    const calls = step ? [{ id: `call_${this.turn}`, ...step }] : [];
    return { calls, text: step ? '' : 'done', inputTokens: 0, outputTokens: 0, model: `scripted-${this.name}`, retries: 0 };
  }

  results(_results: ToolResult[]): void {}

  say(_text: string): void {}
}
