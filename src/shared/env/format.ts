// Text formatting shared by every tool result: numbers as the seed prints them (Python-style
// rounded floats, "-0.0" kept), vectors, hex colours and the budget footer.
// Invariant: the footer is the last line of every text an episode returns.
import type { Vec3 } from '../math/vec3';

/** Rounds to `digits` decimals and prints like Python's repr of a float: 0.4, -0.0, 1.0. */
export function pyFloat(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return String(x);
  const k = 10 ** digits;
  const r = Math.round(Math.abs(x) * k) / k;
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const body = Number.isInteger(r) ? `${r}.0` : String(r);
  return sign + body;
}

/** Rounds to `digits` decimals and prints the shortest form: 0.4, 0, -1.25 (no "-0"). */
export function shortNum(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return String(x);
  const k = 10 ** digits;
  const r = Math.round(x * k) / k;
  return String(Object.is(r, -0) ? 0 : r);
}

export function pyVec(v: readonly number[], digits = 2): string {
  return `[${v.map((x) => pyFloat(x, digits)).join(', ')}]`;
}

export function shortVec(v: readonly number[], digits = 3): string {
  return `[${v.map((x) => shortNum(x, digits)).join(', ')}]`;
}

/** '#rrggbb' of an RGB triple in [0, 1] (clamped, rounded to the nearest byte). */
export function hexColor(c: Readonly<Vec3>): string {
  const byte = (x: number): string => Math.round(Math.min(1, Math.max(0, x)) * 255).toString(16).padStart(2, '0');
  return `#${byte(c[0])}${byte(c[1])}${byte(c[2])}`;
}

/** How a user-supplied value is quoted in error messages: strings in single quotes, others as JSON. */
export function quoteValue(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
  if (typeof value === 'number') return String(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return String(value);
  return json.length > 60 ? `${json.slice(0, 60)}...` : json;
}

export interface BudgetState {
  gaussians: number;
  maxGaussians: number;
  callsLeft: number;
  rendersLeft: number;
}

/** `[74/300 Gaussians | calls left 37 | renders left 15]` */
export function budgetFooter(b: BudgetState): string {
  return `[${b.gaussians}/${b.maxGaussians} Gaussians | calls left ${b.callsLeft} | renders left ${b.rendersLeft}]`;
}

/** A tool result: the body lines followed by the footer on its own line. */
export function withFooter(body: string, b: BudgetState): string {
  return body.length > 0 ? `${body}\n${budgetFooter(b)}` : budgetFooter(b);
}
