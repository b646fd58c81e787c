// Stage 2a (large scenes): the pairs the depth radix sort orders. In: projected [N]. Out: keys
// [N] (the bits of camera z, which for z > 0 order like the float; culled Gaussians NOT_FOUND, so
// they sort after every visible one) and values [N] = index, so the stable sort breaks depth ties
// by index exactly as the CPU reference's depthOrder.
#include "common.wgsl"

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>; // [N]
@group(0) @binding(3) var<storage, read_write> vals_out: array<u32>; // [N]

@compute @workgroup_size(RASTER_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) { return; }
  let p = projected[i];
  keys_out[i] = select(NOT_FOUND, bitcast<u32>(p.depth), p.radii.x > 0);
  vals_out[i] = i;
}
