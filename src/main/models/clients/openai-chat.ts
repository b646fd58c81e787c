// OpenAI-compatible Chat Completions (OpenAI, vLLM, Ollama, ...): tools as functions, tool
// results as `tool` messages, and, because tool messages take no images, each returned PNG in a
// user message right after the tool messages of its turn.
// Inputs: base URL, API key, settings. Outputs: ModelTurns. Invariant: the conversation sent is
// exactly what the model saw (every assistant message is kept as it came back).
import { postJson, type RetryPolicy } from '../http';
import { imageList, nameOf, parseArgs, pngBase64, type ModelClient, type ModelSettings, type ModelTurn, type ToolResult, type ToolSpec, conversationState } from './types';

type Message = Record<string, unknown>;

interface ChatReply {
  model?: string;
  choices?: { message?: { content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: unknown } }[] } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export class OpenAiChatClient implements ModelClient {
  private messages: Message[] = [];
  private tools: unknown[] = [];

  constructor(private readonly baseUrl: string, private readonly apiKey: string | null, private readonly settings: ModelSettings, private readonly retry: RetryPolicy) {}

  start(system: string, text: string, image: Uint8Array | readonly Uint8Array[] | undefined, tools: ToolSpec[]): void {
    this.tools = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    const content: unknown[] = [{ type: 'text', text }];
    for (const im of imageList(image)) content.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64(im)}` } });
    this.messages = [{ role: 'system', content: system }, { role: 'user', content }];
  }

  async next(): Promise<ModelTurn> {
    const s = this.settings;
    const body: Record<string, unknown> = { model: s.model, messages: this.messages, tools: this.tools, max_completion_tokens: s.maxOutputTokens };
    if (s.temperature !== null) body.temperature = s.temperature;
    if (s.effort !== null) body.reasoning_effort = s.effort;
    if (s.seed !== undefined && s.seed !== null) body.seed = s.seed;
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const { json, retries } = await postJson(`${this.baseUrl.replace(/\/$/, '')}/chat/completions`, headers, body, this.retry);
    const reply = json as ChatReply;
    const message = reply.choices?.[0]?.message;
    if (!message) throw new Error('chat completion without a message');
    const calls = (message.tool_calls ?? []).map((c) => ({ id: c.id, name: nameOf(c.function?.name), args: parseArgs(c.function?.arguments) }));
    this.messages.push({ role: 'assistant', content: message.content ?? null, ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}) });
    return {
      calls,
      text: message.content ?? '',
      inputTokens: reply.usage?.prompt_tokens ?? 0,
      outputTokens: reply.usage?.completion_tokens ?? 0,
      model: reply.model ?? null,
      retries,
    };
  }

  results(results: ToolResult[]): void {
    const images: unknown[] = [];
    for (const r of results) {
      this.messages.push({ role: 'tool', tool_call_id: r.id, content: r.text });
      if (r.image) {
        images.push({ type: 'text', text: `Image returned by call ${r.id}:` });
        images.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64(r.image)}` } });
      }
    }
    if (images.length) this.messages.push({ role: 'user', content: images });
  }

  say(text: string): void {
    this.messages.push({ role: 'user', content: text });
  }

  snapshot(): unknown {
    return { system: '', tools: this.tools, messages: this.messages };
  }

  restore(state: unknown): boolean {
    const c = conversationState(state);
    if (!c) return false;
    this.tools = c.tools;
    this.messages = c.messages as typeof this.messages;
    return true;
  }
}
