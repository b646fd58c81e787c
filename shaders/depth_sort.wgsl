// Stage 2 (small scenes, up to RADIX_MIN_GAUSSIANS; larger ones use depth_keys.wgsl and the radix
// sort): depth order of the visible Gaussians, by camera z ascending, ties by index.
// In: projected [N] (radii 0 = culled). Out: ranks [N] (position in depth order; culled ones get
// NOT_FOUND) and order [visible] (order[rank] = index).
// Method: depth_keys writes one u32 per Gaussian (the bits of z > 0 order like the float; culled
// ones get NOT_FOUND, after every visible key); depth_rank counts the keys before its own, O(N^2)
// work in one dispatch with no barriers: software rasterizers (SwiftShader) pay about a
// millisecond per workgroup barrier, which made a bitonic sort of tile keys the slowest stage by
// far, while N is at most a few thousand Gaussians here. Keys with the index tiebreak are unique,
// so the order is deterministic.
#include "common.wgsl"

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>; // [N]
@group(0) @binding(3) var<storage, read_write> ranks: array<u32>; // [N]
@group(0) @binding(4) var<storage, read_write> order: array<u32>; // [visible]

@compute @workgroup_size(RASTER_WORKGROUP)
fn depth_keys(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) { return; }
  let p = projected[i];
  keys[i] = select(NOT_FOUND, bitcast<u32>(p.depth), p.radii.x > 0);
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn depth_rank(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) { return; }
  let key = keys[i];
  if (key == NOT_FOUND) {
    ranks[i] = NOT_FOUND;
    return;
  }
  var rank = 0u;
  for (var j = 0u; j < i; j++) { rank += select(0u, 1u, keys[j] <= key); }
  for (var j = i + 1u; j < params.count; j++) { rank += select(0u, 1u, keys[j] < key); }
  ranks[i] = rank;
  order[rank] = i;
}
