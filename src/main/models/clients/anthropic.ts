// Anthropic Messages API: tools with input_schema, results as tool_result blocks that carry the
// text and the PNG (images go inside tool results here). Reasoning effort maps to an extended
// thinking budget (then temperature is left to the API's default, as it requires).
// Inputs: base URL, API key, settings. Outputs: ModelTurns. Invariant: assistant content is
// sent back unchanged (thinking blocks keep their signatures).
import { postJson, type RetryPolicy } from '../http';
import { imageList, nameOf, pngBase64, type ModelClient, type ModelSettings, type ModelTurn, type ToolResult, type ToolSpec, conversationState } from './types';

type Block = Record<string, unknown>;

interface MessagesReply {
  model?: string;
  content?: Block[];
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Thinking budget (tokens) per effort name; a number is taken as the budget itself. */
export const THINKING_BUDGET: Record<string, number> = { low: 2048, medium: 8192, high: 24576, max: 63999 };

export class AnthropicClient implements ModelClient {
  private messages: { role: 'user' | 'assistant'; content: Block[] | string }[] = [];
  private tools: unknown[] = [];
  private system = '';

  constructor(private readonly baseUrl: string, private readonly apiKey: string | null, private readonly settings: ModelSettings, private readonly retry: RetryPolicy) {}

  start(system: string, text: string, image: Uint8Array | readonly Uint8Array[] | undefined, tools: ToolSpec[]): void {
    this.system = system;
    this.tools = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    const content: Block[] = [];
    for (const im of imageList(image)) content.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64(im) } });
    content.push({ type: 'text', text });
    this.messages = [{ role: 'user', content }];
  }

  async next(): Promise<ModelTurn> {
    const s = this.settings;
    const budget = s.effort === null ? null : (THINKING_BUDGET[s.effort] ?? Number(s.effort));
    const body: Record<string, unknown> = { model: s.model, system: this.system, messages: this.messages, tools: this.tools, max_tokens: s.maxOutputTokens + (budget ?? 0) };
    if (budget !== null && Number.isFinite(budget)) body.thinking = { type: 'enabled', budget_tokens: budget };
    else if (s.temperature !== null) body.temperature = s.temperature;
    const headers: Record<string, string> = { 'anthropic-version': '2023-06-01', ...(this.apiKey ? { 'x-api-key': this.apiKey } : {}) };
    const { json, retries } = await postJson(`${this.baseUrl.replace(/\/$/, '')}/v1/messages`, headers, body, this.retry);
    const reply = json as MessagesReply;
    const content = reply.content ?? [];
    this.messages.push({ role: 'assistant', content });
    return {
      calls: content.filter((b) => b.type === 'tool_use').map((b) => ({ id: String(b.id), name: nameOf(b.name), args: b.input ?? {} })),
      text: content.map((b) => (b.type === 'text' ? String(b.text) : '')).join(''),
      inputTokens: reply.usage?.input_tokens ?? 0,
      outputTokens: reply.usage?.output_tokens ?? 0,
      model: reply.model ?? null,
      retries,
    };
  }

  results(results: ToolResult[]): void {
    this.messages.push({
      role: 'user',
      content: results.map((r) => {
        const inner: Block[] = [{ type: 'text', text: r.text }];
        if (r.image) inner.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64(r.image) } });
        return { type: 'tool_result', tool_use_id: r.id, content: inner, ...(r.isError ? { is_error: true } : {}) };
      }),
    });
  }

  say(text: string): void {
    this.messages.push({ role: 'user', content: text });
  }

  snapshot(): unknown {
    return { system: this.system, tools: this.tools, messages: this.messages };
  }

  restore(state: unknown): boolean {
    const c = conversationState(state);
    if (!c) return false;
    this.system = c.system;
    this.tools = c.tools;
    this.messages = c.messages as typeof this.messages;
    return true;
  }
}
