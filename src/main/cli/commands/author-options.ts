// Option readers shared by the authoring commands (author build, author generate, scramble, fit):
// integers with a minimum and the three task budgets. Errors name the option and the valid range.
import type { Budgets } from '../../authoring/task-files';
import { stringOption, type ParsedArgs } from '../args';
import { CliError } from '../command';

/** A non-negative integer option, or the default. */
export function intOption(args: ParsedArgs, name: string, fallback: number, min = 0): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(v) || v < min) throw new CliError(`--${name} must be an integer >= ${min} (got '${raw}')`);
  return v;
}

/** An integer option >= min, or undefined when absent. */
export function optionalInt(args: ParsedArgs, name: string, min: number): number | undefined {
  return stringOption(args, name) === undefined ? undefined : intOption(args, name, 0, min);
}

export const BUDGET_OPTIONS = ['gaussians', 'calls', 'renders'] as const;

/** --gaussians/--calls/--renders as a partial Budgets (absent options are left out). */
export function budgetOptions(args: ParsedArgs): Partial<Budgets> | undefined {
  const out: Partial<Budgets> = {};
  for (const name of BUDGET_OPTIONS) {
    const v = optionalInt(args, name, name === 'renders' ? 0 : 1);
    if (v !== undefined) out[name] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

