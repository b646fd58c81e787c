// Configuration of the model runners: provider base URLs, which environment variable holds each
// API key, the price table and retry policy. Read from a JSON file (--config) or defaults.
// Input: a path or nothing. Output: EvalConfig. Invariants: API keys are never in this file,
// only the names of the variables that hold them; an unknown field is an error (no silent typos).
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { EpisodeCapsSchema } from '../../shared/env/caps';

/** Each field optional: a missing base_url or api_key_env takes the provider's default (DEFAULT_PROVIDERS). */
const ProviderSchema = z.strictObject({
  base_url: z.string().url().optional(),
  api_key_env: z.string().min(1).optional(),
});

const PriceSchema = z.strictObject({
  input_per_mtok: z.number().nonnegative(),
  output_per_mtok: z.number().nonnegative(),
});

export const EvalConfigSchema = z.strictObject({
  providers: z
    .strictObject({
      openai: ProviderSchema.optional(),
      anthropic: ProviderSchema.optional(),
    })
    .default({}),
  /** USD per million tokens, by model name as given in --model. */
  prices: z.record(z.string(), PriceSchema).default({}),
  retry: z.strictObject({ max: z.number().int().min(0).max(20), base_ms: z.number().nonnegative() }).default({ max: 6, base_ms: 1000 }),
  max_output_tokens: z.number().int().positive().default(8192),
  /** Episodes at once per provider on a BullMQ worker (overrides --concurrency for that provider). */
  concurrency: z.strictObject({ openai: z.number().int().positive().optional(), anthropic: z.number().int().positive().optional(), scripted: z.number().int().positive().optional() }).default({}),
  /** Replies without a tool call answered with a reminder before the runner submits for the model. */
  max_idle_turns: z.number().int().min(0).default(2),
  /** Per-episode caps (cost, tokens, messages, wall time): an episode that reaches one ends as truncated. */
  caps: EpisodeCapsSchema.optional(),
});
export type EvalConfig = z.infer<typeof EvalConfigSchema>;

export const DEFAULT_PROVIDERS = {
  openai: { base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_API_KEY' },
  anthropic: { base_url: 'https://api.anthropic.com', api_key_env: 'ANTHROPIC_API_KEY' },
} as const;

export function loadEvalConfig(path?: string): EvalConfig {
  if (!path) return EvalConfigSchema.parse({});
  if (!existsSync(path)) throw new Error(`eval config ${path} not found`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`eval config ${path} is not JSON: ${(e as Error).message}`);
  }
  const inline = inlineKey(raw);
  if (inline) throw new Error(`eval config ${path}: ${inline}: an inline API key is not allowed (keys come from the environment only: name the variable with api_key_env)`);
  const parsed = EvalConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`eval config ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The path of an inline key (providers.<name>.api_key or a key-like field), if the file has one. */
function inlineKey(raw: unknown): string | null {
  const providers = (raw as { providers?: unknown } | null)?.providers;
  if (!providers || typeof providers !== 'object') return null;
  for (const [name, p] of Object.entries(providers as Record<string, unknown>)) {
    if (!p || typeof p !== 'object') continue;
    const key = Object.keys(p).find((k) => /^(api_?key|key|token|secret)$/i.test(k));
    if (key) return `providers.${name}.${key}`;
  }
  return null;
}

/** A provider's base URL and key variable, the config's fields over the defaults. */
export function providerOf(config: EvalConfig, family: 'openai' | 'anthropic'): { base_url: string; api_key_env: string } {
  const p = config.providers[family];
  const d = DEFAULT_PROVIDERS[family];
  return { base_url: p?.base_url ?? d.base_url, api_key_env: p?.api_key_env ?? d.api_key_env };
}

/** A loopback base URL (a local server: vLLM, Ollama, a test double) needs no key. */
export function isLoopback(url: string): boolean {
  return /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);
}

export function costUsd(config: EvalConfig, model: string, input: number, output: number): number | null {
  const p = config.prices[model];
  return p ? (input * p.input_per_mtok + output * p.output_per_mtok) / 1e6 : null;
}
