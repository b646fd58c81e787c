// Procedural objects built from primitives: the zod schema, validation with messages that name
// the offending part, colour parsing and visibility warnings.
// Inputs: JSON-like object definitions. Outputs: typed ProceduralObject, error and warning lines.
// Invariant: an object that parses has finite positive sizes and every part's exact world AABB
// lies inside the bounds cube [-1, 1]^3 (docs/DESIGN.md section 2).
import { z } from 'zod';
import { hexToRgb } from '../math/color';
import { partAabb, sortedExtents } from './geometry';

export type Vec3 = [number, number, number];

export const PART_KINDS = ['sphere', 'box', 'cylinder', 'cone'] as const;
export type PartKind = (typeof PART_KINDS)[number];

/** Half side of the bounds cube; parts must stay inside [-BOUNDS, BOUNDS]^3. */
export const BOUNDS = 1;
/** Slack on the bounds check so values written with a few decimals that touch a face pass. */
const BOUNDS_TOLERANCE = 1e-9;

const finite = (what: string) =>
  z.number({ error: (iss) => (iss.input === undefined ? `${what} is missing` : `${what} must be a finite number (got ${String(iss.input)})`) })
    .refine(Number.isFinite, { message: `${what} must be a finite number` });
const positive = (what: string) =>
  finite(what).refine((v) => v > 0, { error: (iss) => `${what} must be > 0 (got ${String(iss.input)})` });
const vec3 = (what: string) =>
  z.tuple([finite(`${what}[0]`), finite(`${what}[1]`), finite(`${what}[2]`)], {
    error: () => `${what} must be [x, y, z]`,
  });
const positive3 = (what: string) =>
  z.tuple([positive(`${what}[0]`), positive(`${what}[1]`), positive(`${what}[2]`)], {
    error: () => `${what} must be three numbers > 0`,
  });

const HEX = /^#[0-9a-fA-F]{6}$/;
const colorError = (input: unknown) => `unknown color ${JSON.stringify(input)} (use '#rrggbb' or [r,g,b] in [0, 1])`;
const unit = (what: string) =>
  finite(what).refine((v) => v >= 0 && v <= 1, { error: (iss) => `${what} must be in [0, 1] (got ${String(iss.input)})` });

export const ColorSchema = z.union([
  z.string().regex(HEX, { error: (iss) => colorError(iss.input) }),
  z.tuple([unit('color r'), unit('color g'), unit('color b')]),
], { error: (iss) => colorError(iss.input) });
export type Color = z.infer<typeof ColorSchema>;

const common = {
  pos: vec3('pos'),
  /** XYZ Euler degrees, R = Rz * Ry * Rx. */
  rot: vec3('rot').optional(),
  color: ColorSchema,
  group: z.string().optional(),
};

const sizeError = (expected: string) => () => `size must be ${expected}`;

export const SpherePartSchema = z.object({
  kind: z.literal('sphere'),
  ...common,
  /** Radius, or semi-axes [rx, ry, rz] for a flattened sphere (ellipsoid) in the part's frame. */
  size: z.union([positive('radius'), positive3('size')], { error: sizeError('a radius > 0 or semi-axes [rx, ry, rz]') }),
});
export const BoxPartSchema = z.object({
  kind: z.literal('box'),
  ...common,
  /** Full extents [sx, sy, sz] along the part's own axes. */
  size: positive3('size'),
});
const radiusHeight = z.object({ radius: positive('radius'), height: positive('height') }, {
  error: sizeError('{ radius, height } with both > 0'),
});
export const CylinderPartSchema = z.object({
  kind: z.literal('cylinder'),
  ...common,
  /** Capped cylinder along local Z, centred on pos. */
  size: radiusHeight,
});
export const ConePartSchema = z.object({
  kind: z.literal('cone'),
  ...common,
  /** Capped cone along local Z: base disk at -height/2, tip at +height/2. */
  size: radiusHeight,
});

/**
 * Rejects a part whose exact world AABB leaves the bounds cube. Attached to each part (not the
 * object) so it is reported even when other parts have errors of their own.
 */
function insideBounds(part: Part, ctx: z.core.$RefinementCtx): void {
  const { min, max } = partAabb(part);
  const out = [0, 1, 2].filter((k) => min[k] < -BOUNDS - BOUNDS_TOLERANCE || max[k] > BOUNDS + BOUNDS_TOLERANCE);
  if (out.length === 0) return;
  const axes = out.map((k) => `${'xyz'[k]} in [${min[k].toFixed(3)}, ${max[k].toFixed(3)}]`).join(', ');
  ctx.addIssue({ code: 'custom', message: `${part.kind} leaves the bounds cube [-1, 1]^3: ${axes}` });
}

export const PartSchema = z.discriminatedUnion('kind', [
  SpherePartSchema.superRefine(insideBounds),
  BoxPartSchema.superRefine(insideBounds),
  CylinderPartSchema.superRefine(insideBounds),
  ConePartSchema.superRefine(insideBounds),
], {
  error: (iss) => `unknown kind ${JSON.stringify((iss.input as { kind?: unknown } | undefined)?.kind)} (use ${PART_KINDS.join(', ')})`,
});
export type Part =
  | z.infer<typeof SpherePartSchema>
  | z.infer<typeof BoxPartSchema>
  | z.infer<typeof CylinderPartSchema>
  | z.infer<typeof ConePartSchema>;

export const ProceduralObjectSchema = z.object({
  name: z.string().min(1, 'name must not be empty'),
  parts: z.array(PartSchema).min(1, 'an object needs at least one part'),
});
export type ProceduralObject = z.infer<typeof ProceduralObjectSchema>;

/** Thrown by parseObject; `problems` holds one line per issue, each naming its part. */
export class ObjectValidationError extends Error {
  constructor(readonly objectName: string, readonly problems: string[]) {
    super(`invalid procedural object '${objectName}':\n  ${problems.join('\n  ')}`);
    this.name = 'ObjectValidationError';
  }
}

export type ValidationResult = { ok: true; object: ProceduralObject } | { ok: false; errors: string[] };

/** Validates without throwing; error lines read like `part 3 (nose, cone): size: radius must be > 0 (got 0)`. */
export function validateObject(input: unknown): ValidationResult {
  const res = ProceduralObjectSchema.safeParse(input);
  if (res.success) return { ok: true, object: res.data };
  return { ok: false, errors: res.error.issues.map((iss) => describeIssue(input, iss)) };
}

/** Parses an object definition or throws ObjectValidationError listing every problem. */
export function parseObject(input: unknown): ProceduralObject {
  const res = validateObject(input);
  if (res.ok) return res.object;
  const name = (input as { name?: unknown } | null)?.name;
  throw new ObjectValidationError(typeof name === 'string' ? name : '?', res.errors);
}

function describeIssue(input: unknown, iss: z.core.$ZodIssue): string {
  const path = iss.path;
  if (path[0] !== 'parts' || typeof path[1] !== 'number') {
    const top = path.map(String).join('.');
    return top && !iss.message.startsWith(top) ? `${top}: ${iss.message}` : iss.message;
  }
  const raw = (input as { parts?: unknown[] }).parts?.[path[1]] as { kind?: unknown; group?: unknown } | undefined;
  const label = [typeof raw?.group === 'string' ? raw.group : '', typeof raw?.kind === 'string' ? raw.kind : '']
    .filter(Boolean).join(', ');
  const field = path.slice(2).filter((p) => typeof p === 'string')[0];
  // The field's own name already opens messages such as "pos must be [x, y, z]".
  const prefix = field && !iss.message.startsWith(String(field)) && field !== 'kind' ? `${String(field)}: ` : '';
  return `part ${path[1]}${label ? ` (${label})` : ''}: ${prefix}${iss.message}`;
}

/** A validated part colour as [r, g, b] in [0, 1] (the one colour model, src/shared/math/color.ts). */
export function colorRgb(color: Color): Vec3 {
  if (typeof color !== 'string') return [color[0], color[1], color[2]];
  const rgb = hexToRgb(color);
  if (!rgb) throw new Error(`unknown color '${color}' (use '#rrggbb' or [r,g,b])`);
  return rgb;
}

/** Standard photo rig (docs/DESIGN.md section 2): orbit distance, vertical FOV, image size. */
const STANDARD_DISTANCE = 4.5;
const STANDARD_FOV_DEG = 50;
const STANDARD_SIZE_PX = 256;
/** Parts whose second-largest extent projects under this many pixels are at best a line. */
export const MIN_VISIBLE_PX = 2;

/** Projected size in pixels of a length (world units) at the orbit distance in the standard 256x256 view. */
export function projectedPixels(length: number, distance = STANDARD_DISTANCE): number {
  const f = (0.5 * STANDARD_SIZE_PX) / Math.tan(0.5 * STANDARD_FOV_DEG * Math.PI / 180);
  return (f * length) / distance;
}

/**
 * Warnings for parts too small to see in the standard 256x256 photos. A part is judged by its
 * second-largest extent: a thin plate is still seen face-on, but a speck or a needle whose two
 * largest extents do not both reach MIN_VISIBLE_PX covers at most a hairline.
 */
export function objectWarnings(obj: ProceduralObject): string[] {
  const out: string[] = [];
  obj.parts.forEach((part, i) => {
    const ext = sortedExtents(part);
    const px = projectedPixels(ext[1]);
    if (px < MIN_VISIBLE_PX) {
      const label = part.group ? ` (${part.group}, ${part.kind})` : ` (${part.kind})`;
      out.push(`part ${i}${label}: only ${px.toFixed(1)} px across at 256x256 from distance 4.5; it will hardly show in the photos`);
    }
  });
  return out;
}
