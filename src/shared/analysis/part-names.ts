// Names of a reassembly task's parts from the object's authoring (the seed's heading table says
// "Head", "Left leg", ...): the scramble names its k-means parts part_a, part_b, ... in shuffled
// order (src/shared/authoring/scramble/scramble.ts), while the object's primitives carry their
// authored group (object.json `group`: head, chest, legs, ...). A part takes the group most of its
// true Gaussian positions lie nearest to (by primitive centre); parts sharing a group are told
// apart by side, left and right as seen from the front (+x looks at the viewer, so left is -y),
// else by height. Inputs: the parts' labels and true positions, the primitives. Output: label ->
// name. Invariant: every label gets a distinct name; without named primitives the label stays.
type Vec3 = readonly [number, number, number];

export interface NamedPrimitive {
  pos: Vec3;
  group?: string | undefined;
}

export interface PartPositions {
  label: string;
  positions: readonly Vec3[];
}

const d2 = (a: Vec3, b: Vec3): number => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;

function majorityGroup(positions: readonly Vec3[], prims: readonly NamedPrimitive[]): string | null {
  const votes = new Map<string, number>();
  for (const p of positions) {
    let best: NamedPrimitive | null = null;
    for (const q of prims) if (!best || d2(p, q.pos) < d2(p, best.pos)) best = q;
    if (best?.group) votes.set(best.group, (votes.get(best.group) ?? 0) + 1);
  }
  return [...votes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}

const centroid = (ps: readonly Vec3[]): Vec3 => {
  const n = Math.max(1, ps.length);
  return [ps.reduce((s, p) => s + p[0], 0) / n, ps.reduce((s, p) => s + p[1], 0) / n, ps.reduce((s, p) => s + p[2], 0) / n];
};

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A plural group (legs, arms) names each of its parts in the singular. */
const singular = (g: string): string => (g.endsWith('s') && !g.endsWith('ss') ? g.slice(0, -1) : g);

export function partNames(parts: readonly PartPositions[], prims: readonly NamedPrimitive[]): Map<string, string> {
  const out = new Map<string, string>();
  const named = prims.filter((p) => p.group);
  if (!named.length) {
    for (const p of parts) out.set(p.label, p.label);
    return out;
  }
  const groups = parts.map((p) => ({ label: p.label, group: majorityGroup(p.positions, named) ?? p.label, c: centroid(p.positions) }));
  for (const g of new Set(groups.map((x) => x.group))) {
    const same = groups.filter((x) => x.group === g);
    if (same.length === 1) {
      out.set(same[0].label, capital(g));
      continue;
    }
    const sides = same.map((x) => (Math.abs(x.c[1]) < 0.05 ? '' : x.c[1] < 0 ? 'left' : 'right'));
    const bySide = new Set(sides).size === same.length && !sides.includes('');
    const order = [...same].sort((a, b) => b.c[2] - a.c[2]);
    same.forEach((x, i) => {
      const name = bySide ? `${capital(sides[i])} ${singular(g)}` : `${capital(singular(g))} ${order.indexOf(x) + 1} (from the top)`;
      out.set(x.label, name);
    });
  }
  return out;
}
