// The room scene graph of a search task (docs/DESIGN.md section 9): walls, floor, furniture and
// small target objects, each a named node made of authoring primitives, with the relations the
// question generator reads (on, inside, under, behind).
// Inputs: JSON room specs (tasks/search/rooms/*.json) or the seeded generator. Output: typed Room.
// Invariant: the spec is the whole truth of a procedural room; Gaussians, collisions, visibility
// and answers are all derived from it deterministically, so a task file stores only the spec.
import { z } from 'zod';
import { BoxPartSchema, ConePartSchema, CylinderPartSchema, SpherePartSchema, type Part, type Vec3 } from '../../authoring/primitives';
import { partAabb, type Aabb } from '../../authoring/geometry';

/** Room parts are in metres and may leave the SplatBench bounds cube. */
export const RoomPartSchema = z.discriminatedUnion('kind', [SpherePartSchema, BoxPartSchema, CylinderPartSchema, ConePartSchema]);

export const NODE_ROLES = ['structure', 'furniture', 'target', 'sign'] as const;
export const TEXTURES = ['planks', 'checker', 'stripes'] as const;
export const RELATIONS = ['on', 'inside', 'under', 'behind'] as const;
export type Relation = (typeof RELATIONS)[number];

export const RoomNodeSchema = z.object({
  /** Unique in the room, e.g. 'table-1', 'mug-2'. */
  id: z.string().min(1),
  role: z.enum(NODE_ROLES),
  /** What a person calls it: 'table', 'mug', 'ball'. */
  category: z.string().min(1),
  /** Colour name from COLOR_NAMES for targets; free for structure and furniture. */
  color: z.string().min(1),
  /** Shape word of a target ('sphere', 'cube', 'cylinder', 'cone'). */
  shape: z.string().optional(),
  parts: z.array(RoomPartSchema).min(1),
  /** Where the node stands: relation and the id of the other node. */
  place: z.object({ relation: z.enum(RELATIONS), of: z.string() }).optional(),
  /** A pattern printed on the node's surface splats (floors, rugs, doors). */
  texture: z.enum(TEXTURES).optional(),
  /** Letters printed on the face of the node's first part whose outward normal is `normal` (signs). */
  label: z.object({ text: z.string().regex(/^[A-Z]{1,8}$/, 'labels are 1..8 capital letters'), normal: z.tuple([z.number(), z.number(), z.number()]) }).optional(),
  /** A view must show the node at least this share of the image to read it (signs). */
  read_box: z.number().min(0).max(1).optional(),
  /** A captured object (any splat file the lab reads, path inside the tasks folder) fitted into the node's first part, which stays its collision and visibility proxy. */
  capture: z.object({ file: z.string().regex(/^[A-Za-z0-9_./-]+$/).refine((p) => !p.split('/').includes('..'), 'capture paths stay inside the tasks folder') }).optional(),
});
export type RoomNode = z.infer<typeof RoomNodeSchema>;

export const RoomSpecSchema = z.object({
  name: z.string().min(1),
  seed: z.number().int(),
  /** Inner size [x, y, z] in metres; the floor's top face is z = 0, the room spans [0, x] x [0, y]. */
  size: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
  nodes: z.array(RoomNodeSchema).min(1),
  /** Surface-splat spacing in metres and whether colours are shaded by a fixed light. */
  splat: z.object({ spacing: z.number().min(0.01).max(0.2), shading: z.enum(['flat', 'shaded']) }),
}).superRefine((room, ctx) => {
  const ids = new Set<string>();
  for (const n of room.nodes) {
    if (ids.has(n.id)) ctx.addIssue({ code: 'custom', message: `room ${room.name}: duplicate node id '${n.id}'` });
    ids.add(n.id);
  }
  for (const n of room.nodes) {
    if (n.place && !ids.has(n.place.of)) ctx.addIssue({ code: 'custom', message: `room ${room.name}: node '${n.id}' is ${n.place.relation} unknown node '${n.place.of}'` });
  }
});
export type RoomSpec = z.infer<typeof RoomSpecSchema>;

/** Colour names a target may carry and their RGB; the answer checker accepts the synonyms. */
export const COLOR_NAMES: Readonly<Record<string, Vec3>> = {
  red: [0.85, 0.12, 0.1],
  green: [0.12, 0.65, 0.2],
  blue: [0.12, 0.3, 0.85],
  yellow: [0.95, 0.85, 0.1],
  orange: [0.95, 0.5, 0.08],
  purple: [0.55, 0.2, 0.7],
  pink: [0.95, 0.5, 0.7],
  black: [0.08, 0.08, 0.08],
};
export const COLOR_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  red: ['scarlet', 'crimson'], green: ['lime'], blue: ['navy'], yellow: ['gold'], orange: [],
  purple: ['violet', 'magenta'], pink: ['rose'], black: ['dark'],
};

/** World AABB of a node (union of its parts). */
export function nodeAabb(node: RoomNode): Aabb {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of node.parts) {
    const b = partAabb(p as Part);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], b.min[k]);
      max[k] = Math.max(max[k], b.max[k]);
    }
  }
  return { min, max };
}

/** Every part of the room with the index of its node, in node order (the collision and ray-cast list). */
export function roomParts(room: RoomSpec): { part: Part; node: number }[] {
  const out: { part: Part; node: number }[] = [];
  room.nodes.forEach((n, i) => n.parts.forEach((p) => out.push({ part: p as Part, node: i })));
  return out;
}

export function findNode(room: RoomSpec, id: string): RoomNode {
  const n = room.nodes.find((x) => x.id === id);
  if (!n) throw new Error(`room ${room.name} has no node '${id}'`);
  return n;
}
