// The per-episode run record a model runner writes beside its trajectory (`<stem>.meta.json`):
// who played (provider, model, reported version, effort, temperature), tokens, cost, wall time,
// retries and how the run went. Input/output: the file. Invariant: it never holds an API key,
// a prompt or an image; it is rewritten after every turn, so a broken run keeps its totals.
import { readJsonOrNull } from '../io/json-file';
import { writeFileAtomic } from '../io/write-atomic';
import { z } from 'zod';

export const EpisodeMetaSchema = z.strictObject({
  job_id: z.string(),
  task: z.string(),
  run: z.number().int(),
  provider: z.string(),
  model: z.string(),
  model_version: z.string().nullable(),
  effort: z.string().nullable(),
  temperature: z.number().nullable(),
  player: z.string(),
  status: z.enum(['running', 'done', 'broken']),
  error: z.string().nullable(),
  turns: z.number().int(),
  idle_turns: z.number().int(),
  /** Calls the environment refused (each still cost a call). */
  invalid_calls: z.number().int().default(0),
  auto_submitted: z.boolean(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** Price-table cost of input_tokens + lost_input_tokens and output_tokens. */
  cost_usd: z.number().nullable(),
  /** Model requests sent over all attempts (written before each is sent; turns counts those answered). */
  requests: z.number().int().optional(),
  /** Requests whose answer an attempt never received (its worker was killed while they were in flight). */
  lost_requests: z.number().int().optional(),
  /** Their input tokens, estimated as the last answered request's (the conversation only grows); in cost_usd. */
  lost_input_tokens: z.number().int().optional(),
  /** The last answered request's input tokens (the estimate for a request lost after it). */
  last_input_tokens: z.number().int().optional(),
  retries: z.number().int(),
  /** Seconds spent in this runner over all attempts (model and environment together). */
  wall_s: z.number(),
  attempts: z.number().int(),
  /** The episode's seed (derived from --seed, the task and the run), when the run had one. */
  seed: z.number().int().nullable().optional(),
  /** A resumed attempt continued the saved conversation (false: it started over from the resume note). */
  resumed_conversation: z.boolean().optional(),
  /** The per-episode cap that ended the episode as truncated (null: none did). */
  truncated_by: z.string().nullable().optional(),
  started: z.string(),
  finished: z.string().nullable(),
});
export type EpisodeMeta = z.infer<typeof EpisodeMetaSchema>;

export const metaPathOf = (log: string): string => log.replace(/\.jsonl$/, '') + '.meta.json';

export function readMeta(path: string): EpisodeMeta | null {
  return readJsonOrNull(path, EpisodeMetaSchema);
}

/** Write-then-rename, so a reader (or a killed writer) never leaves half a file. */
export function writeMeta(path: string, meta: EpisodeMeta): void {
  writeFileAtomic(path, JSON.stringify(meta, null, 1) + '\n');
}
