// SplatBench's budgets and the budget footer of every tool result it returns (numbers and values
// print through src/shared/math/format.ts, colours through src/shared/math/color.ts).
// Invariant: the footer is the last line of every text a SplatBench episode returns.
import type { BudgetState } from '../../env/format';

/** SplatBench's budgets: its scene's Gaussians and its renders besides the calls. */
export interface SplatBudgetState extends BudgetState {
  gaussians: number;
  maxGaussians: number;
  rendersLeft: number;
}

/** `[74/300 Gaussians | calls left 37 | renders left 15]` */
export function budgetFooter(b: SplatBudgetState): string {
  return `[${b.gaussians}/${b.maxGaussians} Gaussians | calls left ${b.callsLeft} | renders left ${b.rendersLeft}]`;
}

/** A tool result: the body lines followed by the footer on its own line. */
export function withFooter(body: string, b: SplatBudgetState): string {
  return body.length > 0 ? `${body}\n${budgetFooter(b)}` : budgetFooter(b);
}
