// Scene files (`fit.json`, `grade --scene`): `{ "gaussians": [...] }` where each entry is either the
// compact trajectory form {id?, p, s, q, c, o, g?} or the loose tool form {pos, color, scale?,
// rot?, opacity?, group?}. Input: parsed JSON. Output: GaussianRecord[] with ids in order.
// Invariant: every returned record satisfies the scene limits (the same checks as add_gaussians:
// clamped scales and opacities, unit quaternions); the first invalid entry is one error line.
import { z } from 'zod';
import { checkColor, checkOpacity, checkPos, checkRot, checkScale, type Checked } from '../env/gaussian-input';
import type { GaussianRecord } from '../scene/gaussian';

const num = z.number();
const CompactEntry = z.object({
  id: z.number().int().nonnegative().optional(),
  p: z.array(num).length(3),
  s: z.array(num).length(3),
  q: z.array(num).length(4),
  c: z.array(num).length(3),
  o: num,
  g: z.string().min(1).optional(),
});
const LooseEntry = z.object({
  id: z.number().int().nonnegative().optional(),
  pos: z.array(num).length(3),
  color: z.union([z.string(), z.array(num).length(3)]),
  scale: z.union([num, z.array(num).length(3)]).optional(),
  rot: z.union([z.array(num).length(3), z.array(num).length(4)]).optional(),
  opacity: num.optional(),
  group: z.string().min(1).optional(),
});
const SceneFile = z.object({ gaussians: z.array(z.unknown()) });

export class SceneFileError extends Error {
  override name = 'SceneFileError';
}

function must<T>(c: Checked<T>, where: string): T {
  if (!c.ok) throw new SceneFileError(`${where}: ${c.error}`);
  return c.value;
}

const DEFAULT_SCALE = 0.05;

/** Parses a scene document; throws SceneFileError naming the first bad entry. */
export function parseSceneFile(json: unknown): GaussianRecord[] {
  const doc = SceneFile.safeParse(json);
  if (!doc.success) throw new SceneFileError('a scene file is {"gaussians": [...]}');
  return doc.data.gaussians.map((raw, i) => {
    const where = `gaussian #${i}`;
    const compact = CompactEntry.safeParse(raw);
    const rec: GaussianRecord = compact.success
      ? {
          id: i,
          pos: must(checkPos(compact.data.p), where),
          scale: must(checkScale(compact.data.s), where),
          quat: must(checkRot(compact.data.q), where),
          color: must(checkColor(compact.data.c), where),
          opacity: must(checkOpacity(compact.data.o), where),
        }
      : fromLoose(raw, i, where);
    const group = compact.success ? compact.data.g : (raw as { group?: string }).group;
    if (group !== undefined) rec.group = group;
    return rec;
  });
}

function fromLoose(raw: unknown, i: number, where: string): GaussianRecord {
  const loose = LooseEntry.safeParse(raw);
  if (!loose.success) {
    throw new SceneFileError(`${where}: expected {p, s, q, c, o} or {pos, color, scale?, rot?, opacity?, group?}`);
  }
  const g = loose.data;
  return {
    id: i,
    pos: must(checkPos(g.pos), where),
    scale: must(checkScale(g.scale ?? DEFAULT_SCALE), where),
    quat: must(checkRot(g.rot ?? [1, 0, 0, 0]), where),
    color: must(checkColor(g.color), where),
    opacity: must(checkOpacity(g.opacity ?? 1), where),
  };
}

/** Serialises records in the compact form fit.json uses (ids dropped: order is identity). */
export function sceneFileJson(records: readonly GaussianRecord[]): { gaussians: object[] } {
  return {
    gaussians: records.map((r) => ({
      p: [...r.pos],
      s: [...r.scale],
      q: [...r.quat],
      c: [...r.color],
      o: r.opacity,
      ...(r.group !== undefined ? { g: r.group } : {}),
    })),
  };
}
