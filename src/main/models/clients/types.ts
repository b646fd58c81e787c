// What the episode runner needs from a model, whatever its wire format: start a conversation
// with the system prompt and the first observation, ask for the next turn, hand back results.
// Invariant: a client holds its own conversation; the runner never reads a provider's JSON.
export interface ModelCall {
  id: string;
  name: string;
  /** Parsed arguments, or the raw string when the model sent text that is not JSON. */
  args: unknown;
}

export interface ModelTurn {
  calls: ModelCall[];
  text: string;
  inputTokens: number;
  outputTokens: number;
  /** The model version the provider reported (e.g. a dated snapshot). */
  model: string | null;
  retries: number;
}

export interface ToolResult {
  id: string;
  text: string;
  /** The step's outcome was not ok (from StepInfo.outcome, never from the text). */
  isError?: boolean;
  image?: Uint8Array;
}

export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelClient {
  /** The first message: text and no, one or several PNGs (a judge sends the end and the goal image). */
  start(system: string, text: string, image: Uint8Array | readonly Uint8Array[] | undefined, tools: ToolSpec[]): void;
  next(): Promise<ModelTurn>;
  /** Results of every call of the last turn, in order. */
  results(results: ToolResult[]): void;
  /** A plain user message (a reminder after a turn without tool calls). */
  say(text: string): void;
  /** The conversation as JSON, to continue it after a resume (clients that cannot leave it out). */
  snapshot?(): unknown;
  /** Continues a saved conversation instead of start(); false when the state is not this client's. */
  restore?(state: unknown): boolean;
}

/** A saved conversation of an API client: system prompt, tools and the provider's message list. */
export function conversationState(state: unknown): { system: string; tools: unknown[]; messages: unknown[] } | null {
  const s = state as { system?: unknown; tools?: unknown; messages?: unknown } | null;
  if (!s || typeof s.system !== 'string' || !Array.isArray(s.tools) || !Array.isArray(s.messages)) return null;
  return { system: s.system, tools: s.tools, messages: s.messages };
}

export interface ModelSettings {
  model: string;
  effort: string | null;
  temperature: number | null;
  maxOutputTokens: number;
  /** The episode's seed (src/shared/math/random.ts deriveSeed), sent where the API takes one; null: none. */
  seed?: number | null;
}

export const pngBase64 = (png: Uint8Array): string => Buffer.from(png).toString('base64');

/** The images of a first message as a list. */
export const imageList = (image: Uint8Array | readonly Uint8Array[] | undefined): readonly Uint8Array[] => (image === undefined ? [] : image instanceof Uint8Array ? [image] : image);

/** A call's tool name as sent; '' when the model sent none (the environment refuses it by name). */
export function nameOf(name: unknown): string {
  return typeof name === 'string' ? name : '';
}

/** JSON.parse of a model's argument string; the raw string when it does not parse. */
export function parseArgs(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
