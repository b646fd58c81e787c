// OpenAI Responses API: stateless (store: false), the whole input list resent each turn; function
// calls answered with function_call_output items, and each returned PNG as an input_image in a
// user message after them (function outputs here carry text only).
// Inputs: base URL, API key, settings. Outputs: ModelTurns. Invariant: output items are kept in
// the input as they came back, except reasoning items (not replayable without the server store).
import { postJson, type RetryPolicy } from '../http';
import { imageList, nameOf, parseArgs, pngBase64, type ModelClient, type ModelSettings, type ModelTurn, type ToolResult, type ToolSpec, conversationState } from './types';

type Item = Record<string, unknown>;

interface ResponsesReply {
  model?: string;
  output?: Item[];
  usage?: { input_tokens?: number; output_tokens?: number };
}

export class OpenAiResponsesClient implements ModelClient {
  private input: Item[] = [];
  private tools: unknown[] = [];
  private system = '';

  constructor(private readonly baseUrl: string, private readonly apiKey: string | null, private readonly settings: ModelSettings, private readonly retry: RetryPolicy) {}

  start(system: string, text: string, image: Uint8Array | readonly Uint8Array[] | undefined, tools: ToolSpec[]): void {
    this.system = system;
    this.tools = tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters }));
    const content: unknown[] = [{ type: 'input_text', text }];
    for (const im of imageList(image)) content.push({ type: 'input_image', image_url: `data:image/png;base64,${pngBase64(im)}` });
    this.input = [{ role: 'user', content }];
  }

  async next(): Promise<ModelTurn> {
    const s = this.settings;
    const body: Record<string, unknown> = { model: s.model, instructions: this.system, input: this.input, tools: this.tools, store: false, max_output_tokens: s.maxOutputTokens };
    if (s.temperature !== null) body.temperature = s.temperature;
    if (s.effort !== null) body.reasoning = { effort: s.effort };
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const { json, retries } = await postJson(`${this.baseUrl.replace(/\/$/, '')}/responses`, headers, body, this.retry);
    const reply = json as ResponsesReply;
    const output = reply.output ?? [];
    const calls = output.filter((o) => o.type === 'function_call').map((o) => ({ id: String(o.call_id), name: nameOf(o.name), args: parseArgs(o.arguments) }));
    const text = output
      .filter((o) => o.type === 'message')
      .flatMap((o) => (Array.isArray(o.content) ? (o.content as Item[]) : []))
      .map((c) => (c.type === 'output_text' ? String(c.text) : ''))
      .join('');
    this.input.push(...output.filter((o) => o.type !== 'reasoning'));
    return { calls, text, inputTokens: reply.usage?.input_tokens ?? 0, outputTokens: reply.usage?.output_tokens ?? 0, model: reply.model ?? null, retries };
  }

  results(results: ToolResult[]): void {
    const images: unknown[] = [];
    for (const r of results) {
      this.input.push({ type: 'function_call_output', call_id: r.id, output: r.text });
      if (r.image) images.push({ type: 'input_text', text: `Image returned by call ${r.id}:` }, { type: 'input_image', image_url: `data:image/png;base64,${pngBase64(r.image)}` });
    }
    if (images.length) this.input.push({ role: 'user', content: images });
  }

  say(text: string): void {
    this.input.push({ role: 'user', content: [{ type: 'input_text', text }] });
  }

  snapshot(): unknown {
    return { system: this.system, tools: this.tools, messages: this.input };
  }

  restore(state: unknown): boolean {
    const c = conversationState(state);
    if (!c) return false;
    this.system = c.system;
    this.tools = c.tools;
    this.input = c.messages as typeof this.input;
    return true;
  }
}
