// The reference cameras as a kind's rules name them (docs/TOOLS.md "view_references"): a view's name
// and orbit angles, and the views argument of a render tool resolved to indices.
// Input: a views argument (indices or names) and the task's reference views. Output: indices, or
// one line naming the unknown view and the views there are. Invariant: pure; names match case-blind.
/** A reference camera as the rules name it: its name and, for an orbit camera, its angles. */
export interface ViewInfo {
  name: string;
  azimuth?: number;
  elevation?: number;
}

/** Indices into `views` for a views argument (indices or names), de-duplicated, in given order. */
export function resolveViews(requested: readonly (number | string)[] | undefined, views: readonly ViewInfo[]): { ok: true; indices: number[] } | { ok: false; error: string } {
  if (requested === undefined) return { ok: true, indices: views.map((_, i) => i) };
  const out: number[] = [];
  for (const v of requested) {
    const i = typeof v === 'number' ? (v < views.length ? v : -1) : views.findIndex((w) => w.name.toLowerCase() === v.trim().toLowerCase());
    if (i < 0) {
      const names = views.map((w, k) => `${k} = ${w.name}`).join(', ');
      return { ok: false, error: `unknown view ${typeof v === 'number' ? v : `'${v}'`} (views: ${names})` };
    }
    if (!out.includes(i)) out.push(i);
  }
  return { ok: true, indices: out };
}
