// Buffer layouts of the GPU rasterizer, one per WGSL struct in shaders/common.wgsl.
// Inputs: none. Output: StructLayouts used to size, pack and unpack every buffer.
// Invariant: field order and widths equal the WGSL structs (Splat, ProjectedSplat, IsectGrad,
// ViewParams, Control); changing one side without the other breaks parity tests.
import { structLayout } from '../../gpu/layout';

/** Tile edge in pixels; a rasterizer workgroup is one tile, one invocation per pixel. */
export const TILE_SIZE = 16;
/** Invocations per workgroup in every 1D stage. */
export const WORKGROUP_SIZE = 256;

/** WGSL `Splat`: one Gaussian's parameters. The gradient buffer uses the same layout (v_*). */
export const SPLAT = structLayout([
  { name: 'mean', type: 'f32', count: 3 },
  { name: 'scale', type: 'f32', count: 3 },
  { name: 'quat', type: 'f32', count: 4 },
  { name: 'color', type: 'f32', count: 3 },
  { name: 'opacity', type: 'f32', count: 1 },
] as const);

/** WGSL `ProjectedSplat`: output of project_forward; radii (0, 0) marks a culled Gaussian. */
export const PROJECTED = structLayout(
  [
    { name: 'xy', type: 'f32', count: 2 },
    { name: 'depth', type: 'f32', count: 1 },
    { name: 'opacity', type: 'f32', count: 1 },
    { name: 'conic', type: 'f32', count: 3 }, // vec3 at a 16-byte offset
    { name: 'q_skip', type: 'f32', count: 1 },
    { name: 'color', type: 'f32', count: 3 },
    { name: 'pad', type: 'f32', count: 1 }, // vec2<i32> radii is 8-byte aligned after the vec3
    { name: 'radii', type: 'i32', count: 2 },
  ] as const,
  4,
);

/** WGSL `IsectGrad`: one intersection's gradient summed over one pixel row of its tile. */
export const ISECT_GRAD = structLayout([
  { name: 'v_xy', type: 'f32', count: 2 },
  { name: 'v_conic', type: 'f32', count: 3 },
  { name: 'v_color', type: 'f32', count: 3 },
  { name: 'v_opacity', type: 'f32', count: 1 },
] as const);

/** WGSL `ViewParams` (uniform): camera rows, intrinsics, Jacobian clamp limits, sizes. */
export const VIEW_PARAMS = structLayout(
  [
    { name: 'row0', type: 'f32', count: 4 }, // world_to_camera rows, translation in .w
    { name: 'row1', type: 'f32', count: 4 },
    { name: 'row2', type: 'f32', count: 4 },
    { name: 'focal', type: 'f32', count: 4 }, // fx, fy, cx, cy
    { name: 'lims', type: 'f32', count: 4 }, // lim_x_pos, lim_x_neg, lim_y_pos, lim_y_neg
    { name: 'width', type: 'u32', count: 1 },
    { name: 'height', type: 'u32', count: 1 },
    { name: 'tiles_x', type: 'u32', count: 1 },
    { name: 'tiles_y', type: 'u32', count: 1 },
    { name: 'count', type: 'u32', count: 1 }, // number of Gaussians
    { name: 'capacity', type: 'u32', count: 1 }, // slots in the tile id lists
  ] as const,
  4,
);

/** WGSL `Control`: intersection bookkeeping written on the GPU and read back by the host. */
export const CONTROL = structLayout([
  { name: 'isect_total', type: 'u32', count: 1 }, // ids the tile lists need (may exceed capacity)
  { name: 'visible', type: 'u32', count: 1 }, // Gaussians not culled
] as const);
