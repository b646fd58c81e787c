// Numbers and values as the tools' texts print them (docs/DESIGN.md section 2): Python-style
// rounded floats ("-0.0" kept), the shortest rounded form, vectors, and how a user's value is
// quoted in an error message. Pure; used by the scene policy, the tools and the episode text.
// Invariant: pyFloat(x) is what the seed's Python prints for round(x, digits).
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
