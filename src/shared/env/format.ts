// What every kind counts down (the budgets a kind's rules report; docs/DESIGN.md section 13). SplatBench's
// budgets and its footer are its own (src/shared/kinds/splatbench/format.ts).
// Invariant: a kind without a scene or renders writes no zeros for them.

/** What every kind counts down (issue 39: a kind without a scene or renders writes no zeros for them). */
export interface BudgetState {
  callsLeft: number;
}
