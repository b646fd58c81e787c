// The ten SplatBench tools as zod schemas: the single source of truth for argument validation in
// the episode, the JSON Schema handed to agents (toolJsonSchemas) and docs/TOOLS.md.
// Inputs: raw call arguments (possibly with JSON strings where arrays/objects go, as small models
// send them). Outputs: typed arguments. Invariant: every episode call is parsed by exactly these
// schemas; a semantic check (bounds, ids, budgets) happens afterwards in the episode logic.
import { z } from 'zod';
import { ColorSchema, DEFAULT_SCALE, GroupSchema, NewGaussianSchema, OpacitySchema, PosSchema, RotSchema, ScaleSchema } from '../../scene/input';

export { ColorSchema, DEFAULT_SCALE, GroupSchema, NewGaussianSchema, OpacitySchema, PosSchema, RotSchema, ScaleSchema };

const num = z.number();
const vec3 = z.tuple([num, num, num]);

const idSchema = z.number().int().nonnegative();
const idsSchema = z.array(idSchema).min(1).max(4096).describe('Gaussian ids (integers assigned in order, never reused).');
const viewsSchema = z.array(z.union([z.number().int().nonnegative(), z.string().min(1)])).min(1).max(64).describe(
  'Reference views by index (0 = V0) or by name ("V0"). Default: all reference views.',
);
const groupsSchema = z.array(GroupSchema).min(1).max(64).describe('Render only the Gaussians of these groups. Default: the whole scene.');

export const GaussianEditSchema = z.strictObject({
  id: idSchema.describe('Id of the Gaussian to edit.'),
  pos: PosSchema.optional(),
  color: ColorSchema.optional(),
  scale: ScaleSchema.optional(),
  rot: RotSchema.optional(),
  opacity: OpacitySchema.optional(),
  group: GroupSchema.nullable().optional().describe('New group label, or null to remove the label.'),
});

const empty = z.strictObject({});

export const TOOL_SCHEMAS = {
  add_gaussians: z
    .strictObject({
      gaussians: z.array(NewGaussianSchema).min(1).max(4096).describe(
        `Gaussians to add. Items are numbered from #0 in messages. scale defaults to ${DEFAULT_SCALE}.`,
      ),
    })
    .describe('Add Gaussians. The call is atomic: if any item is invalid nothing is added. Returns the new ids. Cost: 1 call.'),
  edit_gaussians: z
    .strictObject({
      gaussians: z.array(GaussianEditSchema).min(1).max(4096).describe('Edits: each item names an id and the fields to replace; other fields keep their values.'),
    })
    .describe('Edit existing Gaussians (atomic: an invalid item voids the whole call). Returns the number edited. Cost: 1 call.'),
  delete_gaussians: z
    .strictObject({ ids: idsSchema.optional(), group: GroupSchema.optional().describe('Delete every Gaussian of this group.') })
    .describe('Delete Gaussians by ids or by group (give at least one; both delete the union). Ids are never reused. Cost: 1 call.'),
  transform_group: z
    .strictObject({
      group: GroupSchema.optional().describe('The group to move as one rigid piece.'),
      ids: idsSchema.optional(),
      translate: vec3.optional().describe('Translation [dx, dy, dz], applied last.'),
      rotate_deg: z.union([num, z.tuple([num, num, num])])
        .optional()
        .describe('Rotation about the set\'s centroid: one number = degrees about the vertical Z axis; [rx, ry, rz] = XYZ Euler degrees (R = Rz * Ry * Rx).'),
      scale: z.union([num, z.tuple([num, num, num])])
        .optional()
        .describe('Scale factor about the set\'s centroid (positive): one number or per world axis [kx, ky, kz]; also scales the Gaussians (clamped to [0.005, 0.5] with a warning).'),
    })
    .describe('Move a group (or a list of ids) rigidly about its centroid: scale, then rotate, then translate. Rejected if any Gaussian would leave [-1.25, 1.25]^3. Returns the old and new centroid. Cost: 1 call.'),
  list_gaussians: z
    .strictObject({ group: GroupSchema.optional().describe('Only this group.') })
    .describe('List Gaussians, one text row each (id, pos, scale, rot in XYZ Euler degrees, color, opacity, group). Cost: 1 call.'),
  describe_groups: empty.describe('Per group: count, centroid, bounding box and mean colour. Cost: 1 call.'),
  view_references: z.strictObject({ views: viewsSchema.optional() }).describe('Show the reference photos again as a labelled contact sheet. Cost: 1 call.'),
  render_views: z
    .strictObject({ views: viewsSchema.optional(), groups: groupsSchema.optional() })
    .describe('Render the scene from reference cameras: photo, render and difference per view, with PSNR, SSIM and silhouette IoU against the photo. Cost: 1 call and 1 render.'),
  render_angle: z
    .strictObject({
      azimuth: num.describe('Degrees in the XY plane from +X towards +Y.'),
      elevation: num.min(-90).max(90).describe('Degrees from the XY plane towards +Z, in [-90, 90].'),
      groups: groupsSchema.optional(),
    })
    .describe('Render the scene from any orbit angle (no photo to compare with). Cost: 1 call and 1 render.'),
  submit: empty.describe('End the episode; the scene is graded. Cost: 1 call.'),
} as const;

export type ToolName = keyof typeof TOOL_SCHEMAS;
export type ToolArgs<T extends ToolName> = z.output<(typeof TOOL_SCHEMAS)[T]>;
export type { NewGaussian } from '../../scene/input';

export const TOOL_NAMES = Object.keys(TOOL_SCHEMAS) as ToolName[];

export function isToolName(name: unknown): name is ToolName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(TOOL_SCHEMAS, name);
}


export interface ToolJsonSchema {
  name: ToolName;
  description: string;
  parameters: Record<string, unknown>;
}

/** JSON Schema (draft 2020-12) of every tool's arguments, as agents receive them. */
export function toolJsonSchemas(): ToolJsonSchema[] {
  return TOOL_NAMES.map((name) => {
    const schema = TOOL_SCHEMAS[name];
    const parameters = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    delete parameters.description;
    return { name, description: schema.description ?? '', parameters };
  });
}
