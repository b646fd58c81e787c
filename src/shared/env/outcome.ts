// The one formatter of refusals and failures (docs/AGENTS.md "Outcomes"): every kind's rules say
// why a call was refused through these helpers, so the text starts with the same `ERROR:` prefix
// everywhere, and every consumer reads the step's `outcome` (src/shared/env/step-info.ts), never
// the text. test/lint/outcome.test.ts keeps text sniffing out of the rest of the code.
// Inputs: a raw tool call (name, arguments as sent). Outputs: the tool's name or a refusal,
// decoded arguments or an invalid-JSON refusal, and the error line.
// Invariant: a refusal's text begins with ERROR_PREFIX and its outcome is not `ok`.
import type { OutcomeCode } from './step-info';

export const ERROR_PREFIX = 'ERROR:';

/** The one error line: `ERROR: <detail>`. */
export function errorText(detail: string): string {
  return `${ERROR_PREFIX} ${detail}`;
}

export const EPISODE_OVER = errorText('the episode is over; no further calls are accepted.');

/** The name of a call's tool, or null when the call names none (missing, empty or not a string). */
export function toolNameOf(call: { tool?: unknown } | null | undefined): string | null {
  const tool = call?.tool;
  return typeof tool === 'string' && tool.trim() !== '' ? tool : null;
}

/** How a call without a name is logged and reported (so logs never read `<undefined>`). */
export const NAMELESS_TOOL = '(no name)';

/** The refusal of a nameless call, naming what was missing and the tools there are. */
export function namelessRefusal(tools: readonly string[]): { code: OutcomeCode; detail: string } {
  return { code: 'no_tool_name', detail: `the call names no tool (a tool call needs a name: ${tools.join(', ')})` };
}

export type DecodedArgs = { ok: true; value: unknown } | { ok: false; code: OutcomeCode; detail: string };

/**
 * The arguments as the schemas see them: absent or blank is {}; a whole-argument string (as a
 * model's raw function-call arguments) must be valid JSON, else the refusal says it was not.
 */
export function decodeArgs(raw: unknown): DecodedArgs {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (typeof raw !== 'string') return { ok: true, value: raw };
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (e) {
    const why = (e as Error).message.split('\n')[0].slice(0, 120);
    return { ok: false, code: 'invalid_json', detail: `the arguments are not valid JSON (${why}); nothing was done` };
  }
}
