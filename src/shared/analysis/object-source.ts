// Where a SplatBench object comes from (docs/TASKS.md "Results per object source"): the seed
// averages procedural shapes, NeRF-Synthetic (rendered) objects and photographed objects, and
// says the detailed ones are much harder, so Results and the exports split every score by it.
// Input: a spec's `source`, else build.json's `source` tag. Output: one of OBJECT_SOURCES.
// Invariant: tasks built before the spec carried a source read the same as after.
import { z } from 'zod';

export const OBJECT_SOURCES = ['procedural', 'synthetic', 'photographed'] as const;
export const ObjectSourceSchema = z.enum(OBJECT_SOURCES);
export type ObjectSource = z.infer<typeof ObjectSourceSchema>;
/** A row over every source (Results' "all"). */
export const ALL_SOURCES = 'all';

/**
 * The source of an object from build.json's `source` tag: `nerf-synthetic:*` is synthetic,
 * `capture:*` photographed; procedural, authored and generated objects (ray-cast primitives) and
 * anything else made in the lab are procedural.
 */
export function objectSourceOf(tag: string | undefined | null): ObjectSource {
  if (!tag) return 'procedural';
  if (tag.startsWith('nerf-synthetic:')) return 'synthetic';
  if (tag.startsWith('capture:')) return 'photographed';
  return 'procedural';
}
