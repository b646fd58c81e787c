// `--model SPEC` parsing and the client it names. SPEC is PROVIDER:MODEL[@EFFORT]:
// openai-chat:gpt-x, openai-responses:gpt-x@high, anthropic:claude-x@medium, scripted:basic.
// Inputs: the spec, temperature, config, process environment. Output: a ModelClient factory.
// Invariant: an API key is read from the variable the config names, at client creation only,
// and never written anywhere; a missing key for a remote API is a one-line error.
import { AnthropicClient } from './clients/anthropic';
import { OpenAiChatClient } from './clients/openai-chat';
import { OpenAiResponsesClient } from './clients/openai-responses';
import { ScriptedClient } from './clients/scripted';
import type { ModelClient, ModelSettings } from './clients/types';
import { isLoopback, providerOf, type EvalConfig } from './config';
import { deriveSeed } from '../../shared/math/random';

export const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'scripted'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelSpec {
  provider: Provider;
  model: string;
  effort: string | null;
  temperature: number | null;
  /** `--seed`: every random choice of the run derives from it (docs/AGENTS.md "Seeds"). */
  seed?: number;
}

export function parseModelSpec(spec: string, temperature: number | null = null): ModelSpec {
  const m = /^([a-z-]+):([^@\s]+)(?:@([A-Za-z0-9_-]+))?$/.exec(spec);
  if (!m) throw new Error(`--model '${spec}' is not PROVIDER:MODEL[@EFFORT] (providers: ${PROVIDERS.join(', ')})`);
  const provider = m[1] as Provider;
  if (!PROVIDERS.includes(provider)) throw new Error(`unknown provider '${m[1]}' (one of ${PROVIDERS.join(', ')})`);
  if (temperature !== null && !(temperature >= 0 && temperature <= 2)) throw new Error('--temperature must lie in [0, 2]');
  return { provider, model: m[2], effort: m[3] ?? null, temperature };
}

/** The settings part of a job id and of the player name: effort and temperature. */
export function settingsKey(s: ModelSpec): string {
  return [`effort=${s.effort ?? 'default'}`, `temp=${s.temperature ?? 'default'}`, ...(s.seed !== undefined ? [`seed=${s.seed}`] : [])].join(',');
}

export function playerName(s: ModelSpec): string {
  return `${s.provider}:${s.model}${s.effort ? `@${s.effort}` : ''}${s.temperature !== null ? ` t=${s.temperature}` : ''}`;
}

/** Provider family for per-provider concurrency limits. */
export function providerFamily(s: ModelSpec): 'openai' | 'anthropic' | 'scripted' {
  return s.provider === 'anthropic' ? 'anthropic' : s.provider === 'scripted' ? 'scripted' : 'openai';
}

/**
 * The provider a spec talks to, once its key is known to be there: a remote API needs the variable
 * its config names to be set; a loopback base URL needs none. Checked once at the start of a run.
 */
export function checkKey(s: ModelSpec, config: EvalConfig, env: NodeJS.ProcessEnv = process.env): { base_url: string; api_key_env: string } {
  const p = providerOf(config, providerFamily(s) === 'anthropic' ? 'anthropic' : 'openai');
  if (s.provider !== 'scripted' && !env[p.api_key_env] && !isLoopback(p.base_url)) {
    throw new Error(`${p.api_key_env} is not set (the API key for ${p.base_url} comes from the environment only; a loopback base_url needs none)`);
  }
  return p;
}

/** The seed of one episode of a seeded run (null when the run has none). */
export function episodeSeed(s: ModelSpec, taskId: string, run: number): number | null {
  return s.seed === undefined ? null : deriveSeed(s.seed, taskId, run);
}

export function makeClient(s: ModelSpec, config: EvalConfig, env: NodeJS.ProcessEnv = process.env, seed: number | null = null): ModelClient {
  if (s.provider === 'scripted') return new ScriptedClient(s.model, seed);
  const p = checkKey(s, config, env);
  const key = env[p.api_key_env] || null;
  const settings: ModelSettings = { model: s.model, effort: s.effort, temperature: s.temperature, maxOutputTokens: config.max_output_tokens, seed };
  const retry = { max: config.retry.max, baseMs: config.retry.base_ms };
  if (s.provider === 'anthropic') return new AnthropicClient(p.base_url, key, settings, retry);
  if (s.provider === 'openai-responses') return new OpenAiResponsesClient(p.base_url, key, settings, retry);
  return new OpenAiChatClient(p.base_url, key, settings, retry);
}
