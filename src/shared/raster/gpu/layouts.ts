// Buffer layouts of the GPU rasterizer, one per WGSL struct in shaders/common.wgsl, computed with
// WGSL's alignment rules (src/shared/gpu/struct.ts), and the kernel of every rasterizer stage with
// its named bindings. Inputs: none. Output: WgslStructs and KernelSpecs.
// Invariant: names, offsets and sizes equal the WGSL structs (Splat, ProjectedSplat, IsectGrad,
// ViewParams, Control) and the bindings equal each entry point's declarations; both are checked
// against the shaders by test/shared/gpu/wgsl-structs.test.ts.
import { RASTER_WORKGROUP, TILE_SIZE } from '../../gpu/constants';
import { kernelSpec, read, rw, uniform } from '../../gpu/kernel';
import { wgslStruct } from '../../gpu/struct';

export { TILE_SIZE };
/** Invocations per workgroup in every per-Gaussian stage. */
export const WORKGROUP_SIZE = RASTER_WORKGROUP;

/** WGSL `Splat`: one Gaussian's parameters. The gradient buffer uses the same layout (v_*). */
export const SPLAT = wgslStruct('Splat', {
  mean: 'array<f32, 3>',
  scale: 'array<f32, 3>',
  quat: 'array<f32, 4>',
  color: 'array<f32, 3>',
  opacity: 'f32',
});

/** WGSL `ProjectedSplat`: output of project_forward; radii (0, 0) marks a culled Gaussian. */
export const PROJECTED = wgslStruct('ProjectedSplat', {
  xy: 'vec2<f32>',
  depth: 'f32',
  opacity: 'f32',
  conic: 'vec3<f32>',
  q_skip: 'f32',
  color: 'vec3<f32>',
  radii: 'vec2<i32>',
  xy_rel: 'vec2<f32>',
});

/** WGSL `IsectGrad`: one intersection's gradient summed over one pixel row of its tile. */
export const ISECT_GRAD = wgslStruct('IsectGrad', {
  v_xy: 'array<f32, 2>',
  v_conic: 'array<f32, 3>',
  v_color: 'array<f32, 3>',
  v_opacity: 'f32',
});

/** WGSL `ViewParams` (uniform): camera rows, intrinsics, Jacobian clamp limits, sizes. */
export const VIEW_PARAMS = wgslStruct('ViewParams', {
  row0: 'vec4<f32>', // world_to_camera rows, translation in .w
  row1: 'vec4<f32>',
  row2: 'vec4<f32>',
  focal: 'vec4<f32>', // fx, fy, cx, cy
  lims: 'vec4<f32>', // lim_x_pos, lim_x_neg, lim_y_pos, lim_y_neg
  eye: 'vec4<f32>', // camera centre (xyz)
  width: 'u32',
  height: 'u32',
  tiles_x: 'u32',
  tiles_y: 'u32',
  count: 'u32', // number of Gaussians
  capacity: 'u32', // slots in the tile id lists
  sh_degree: 'u32', // SH bands evaluated
  sh_stride: 'u32', // SH coefficients stored per Gaussian and channel
  flags: 'u32', // 1: the scene has SH, 2: antialiased
});

/** ViewParams.flags bits (FLAG_SH, FLAG_ANTIALIASED in shaders/common.wgsl). */
export const VIEW_FLAGS = { sh: 1, antialiased: 2 } as const;

/** WGSL `SortParams` of radix_sort.wgsl (uniform, one per pass). */
export const SORT_PARAMS = wgslStruct('SortParams', {
  shift: 'u32',
  chunk: 'u32',
  chunks: 'u32',
  count_index: 'u32',
});

/** WGSL `Control` (ControlAtomic in project_forward): bookkeeping read back by the host. */
export const CONTROL = wgslStruct('Control', {
  isect_total: 'u32', // ids the tile lists need (may exceed capacity)
  visible: 'u32', // Gaussians not culled
});

const radix = {
  sp: uniform(SORT_PARAMS), counts: read(), keys_in: read(), vals_in: read(), keys_out: rw(), vals_out: rw(), hist: rw(), block_sums: rw(),
};
const tileKeys = {
  params: uniform(VIEW_PARAMS), projected: read(PROJECTED), sorted_keys: read(), order: read(), ranks: rw(), offsets: rw(), block_sums: rw(),
  control: rw(CONTROL), counts: rw(), tile_keys: rw(), tile_vals: rw(), ranges: rw(),
};
const depthSort = { params: uniform(VIEW_PARAMS), projected: read(PROJECTED), keys: rw(), ranks: rw(), order: rw() };
const tileBin = { params: uniform(VIEW_PARAMS), projected: read(PROJECTED), order: read(), control: rw(CONTROL), ranges: rw(), ids: rw() };

/** Every stage of the rasterizer, by the name the host uses. */
export const RASTER_KERNELS = {
  projectForward: kernelSpec('project_forward.wgsl', 'main', { params: uniform(VIEW_PARAMS), splats: read(SPLAT), projected: rw(PROJECTED), control: rw(CONTROL), sh: read() }),
  depthPairs: kernelSpec('depth_keys.wgsl', 'main', { params: uniform(VIEW_PARAMS), projected: read(PROJECTED), keys_out: rw(), vals_out: rw() }),
  radixHist: kernelSpec('radix_sort.wgsl', 'radix_hist', radix),
  radixScanBlocks: kernelSpec('radix_sort.wgsl', 'radix_scan_blocks', radix),
  radixScanTop: kernelSpec('radix_sort.wgsl', 'radix_scan_top', radix),
  radixScanApply: kernelSpec('radix_sort.wgsl', 'radix_scan_apply', radix),
  radixScatter: kernelSpec('radix_sort.wgsl', 'radix_scatter', radix),
  gatherCounts: kernelSpec('tile_keys.wgsl', 'gather_counts', tileKeys),
  countBlocks: kernelSpec('tile_keys.wgsl', 'count_blocks', tileKeys),
  countTop: kernelSpec('tile_keys.wgsl', 'count_top', tileKeys),
  countApply: kernelSpec('tile_keys.wgsl', 'count_apply', tileKeys),
  emitPairs: kernelSpec('tile_keys.wgsl', 'emit_pairs', tileKeys),
  tileRanges: kernelSpec('tile_keys.wgsl', 'tile_ranges', tileKeys),
  depthKeys: kernelSpec('depth_sort.wgsl', 'depth_keys', depthSort),
  depthRank: kernelSpec('depth_sort.wgsl', 'depth_rank', depthSort),
  tileCount: kernelSpec('tile_bin.wgsl', 'tile_count', tileBin),
  tileScan: kernelSpec('tile_bin.wgsl', 'tile_scan', tileBin),
  tileFill: kernelSpec('tile_bin.wgsl', 'tile_fill', tileBin),
  rasterizeForward: kernelSpec('rasterize_forward.wgsl', 'main', {
    params: uniform(VIEW_PARAMS), projected: read(PROJECTED), ids: read(), ranges: read(), out_rgb: rw(), out_alpha: rw(), final_t: rw(),
  }),
  rasterizeBackward: kernelSpec('rasterize_backward.wgsl', 'main', {
    params: uniform(VIEW_PARAMS), projected: read(PROJECTED), ids: read(), ranges: read(), fwd_rgb: read(), fwd_t: read(), v_image: read(), partials: rw(ISECT_GRAD),
  }),
  projectBackward: kernelSpec('project_backward.wgsl', 'main', {
    params: uniform(VIEW_PARAMS), splats: read(SPLAT), projected: read(PROJECTED), ranks: read(), ids: read(), ranges: read(), partials: read(ISECT_GRAD), grads: rw(SPLAT),
  }),
};
