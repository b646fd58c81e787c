// The per-episode cap flags shared by `eval`, `mcp` and `rl` (--max-cost-usd, --max-tokens,
// --max-messages, --max-wall-s; docs/AGENTS.md "Caps") and --idle-timeout-s of the servers.
// Input: parsed arguments (and the config file's caps, which a flag overrides). Output: caps or
// undefined. Invariant: a bad value is one CliError line naming the flag.
import { CAP_NAMES, EpisodeCapsSchema, hasCaps, type EpisodeCaps } from '../../shared/env/caps';
import { stringOption, type ParsedArgs } from './args';
import { CliError } from './command';

export const CAP_FLAGS = CAP_NAMES.map((n) => n.replace(/_/g, '-'));

export function capsOption(args: ParsedArgs, base?: EpisodeCaps): EpisodeCaps | undefined {
  const caps: Record<string, number> = { ...base };
  for (const name of CAP_NAMES) {
    const raw = stringOption(args, name.replace(/_/g, '-'));
    if (raw !== undefined) caps[name] = Number(raw);
  }
  const parsed = EpisodeCapsSchema.safeParse(caps);
  if (!parsed.success) throw new CliError(`--${String(parsed.error.issues[0].path[0]).replace(/_/g, '-')}: ${parsed.error.issues[0].message}`);
  return hasCaps(parsed.data) ? parsed.data : undefined;
}

export function idleOption(args: ParsedArgs): number | undefined {
  const raw = stringOption(args, 'idle-timeout-s');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!(n > 0)) throw new CliError('--idle-timeout-s must be a positive number of seconds');
  return n;
}
