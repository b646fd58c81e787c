// Stage 3 (small scenes): per-tile lists of Gaussian ids in depth order, in three dispatches.
// Large scenes use tile_keys.wgsl + radix_sort.wgsl instead, which give the same lists.
// tile_count (one invocation per tile): ranges[tile] = (0, number of visible Gaussians whose tile
//   box holds the tile and whose alpha >= 1/255 ellipse can reach one of its pixel centres). tile_scan (one invocation): exclusive prefix sum over tiles in tile order,
//   ranges[tile] = [start, end), control.isect_total = the sum. tile_fill (one invocation per tile):
//   ids[start ..] = those Gaussians walked in depth order, so each list is sorted by (depth, index).
// Ids past params.capacity are not written; the host reads isect_total, grows the list and reruns.
// Invariant: no atomics and no barriers; the lists depend only on the projection and the order.
#include "common.wgsl"

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>; // [N]
@group(0) @binding(2) var<storage, read> order: array<u32>; // [visible]
@group(0) @binding(3) var<storage, read_write> control: Control;
@group(0) @binding(4) var<storage, read_write> ranges: array<vec2<u32>>; // [tiles]
@group(0) @binding(5) var<storage, read_write> ids: array<u32>; // [capacity]

@compute @workgroup_size(TILE_BIN_WORKGROUP)
fn tile_count(@builtin(global_invocation_id) gid: vec3<u32>) {
  let tile = gid.x;
  if (tile >= params.tiles_x * params.tiles_y) { return; }
  let tx = tile % params.tiles_x;
  let ty = tile / params.tiles_x;
  var n = 0u;
  for (var r = 0u; r < control.visible; r++) {
    if (touches(params, projected[order[r]], tx, ty)) { n++; }
  }
  ranges[tile] = vec2<u32>(0u, n);
}

@compute @workgroup_size(1)
fn tile_scan() {
  var start = 0u;
  for (var tile = 0u; tile < params.tiles_x * params.tiles_y; tile++) {
    let n = ranges[tile].y;
    ranges[tile] = vec2<u32>(start, start + n);
    start += n;
  }
  control.isect_total = start;
}

@compute @workgroup_size(TILE_BIN_WORKGROUP)
fn tile_fill(@builtin(global_invocation_id) gid: vec3<u32>) {
  let tile = gid.x;
  if (tile >= params.tiles_x * params.tiles_y) { return; }
  let tx = tile % params.tiles_x;
  let ty = tile / params.tiles_x;
  var k = ranges[tile].x;
  let end = min(ranges[tile].y, params.capacity);
  for (var r = 0u; r < control.visible && k < end; r++) {
    let g = order[r];
    if (touches(params, projected[g], tx, ty)) {
      ids[k] = g;
      k++;
    }
  }
}
