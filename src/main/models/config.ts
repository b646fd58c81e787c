// Configuration of the model runners: provider base URLs, which environment variable holds each
// API key, the price table and retry policy. Read from a JSON file (--config) or defaults.
// Input: a path or nothing. Output: EvalConfig. Invariants: API keys are never in this file,
// only the names of the variables that hold them; an unknown field is an error (no silent typos).
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

const ProviderSchema = z.strictObject({
  base_url: z.string().url(),
  api_key_env: z.string().min(1),
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
  const parsed = EvalConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`eval config ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

export function costUsd(config: EvalConfig, model: string, input: number, output: number): number | null {
  const p = config.prices[model];
  return p ? (input * p.input_per_mtok + output * p.output_per_mtok) / 1e6 : null;
}
