// Stage 3 (large scenes): per-tile lists from sorted keys, the same lists as tile_bin.wgsl.
// In: projected [N], the depth-sorted Gaussians (sorted_keys / order from radix_sort.wgsl over
// depth keys; culled ones last with key NOT_FOUND). Out: ranks [N], the (tile, Gaussian) pairs of
// every intersection in depth order (tile_keys / tile_vals, then stably radix-sorted by tile, so
// each tile's run stays in depth order), ranges [tiles] and control.isect_total.
// Dispatches (after depth_keys.wgsl and the depth sort): gather_counts (per rank: rank of each Gaussian and its number of touched tiles), count_blocks /
// count_top / count_apply (exclusive prefix sum over ranks; count_top writes isect_total and
// counts[1] = min(total, capacity)), emit_pairs (per rank, its tiles in row-major order), and after
// the tile sort tile_ranges. Ids past params.capacity are not written (the host grows and reruns).
#include "common.wgsl"

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>; // [N]
@group(0) @binding(2) var<storage, read> sorted_keys: array<u32>; // [N] depth keys, sorted
@group(0) @binding(3) var<storage, read> order: array<u32>; // [N] Gaussian of each rank
@group(0) @binding(4) var<storage, read_write> ranks: array<u32>; // [N]
@group(0) @binding(5) var<storage, read_write> offsets: array<u32>; // [N] per rank: count, then first slot
@group(0) @binding(6) var<storage, read_write> block_sums: array<u32>; // [ceil(N / 256)]
@group(0) @binding(7) var<storage, read_write> control: Control;
@group(0) @binding(8) var<storage, read_write> counts: array<u32>; // [2]: N (host), intersections in the lists
@group(0) @binding(9) var<storage, read_write> tile_keys: array<u32>; // [capacity]
@group(0) @binding(10) var<storage, read_write> tile_vals: array<u32>; // [capacity]
@group(0) @binding(11) var<storage, read_write> ranges: array<vec2<u32>>; // [tiles], cleared by the host

const BLOCK: u32 = 256u;

fn touched_tiles(g: ProjectedSplat) -> u32 {
  let box = tile_box(params, g.xy, g.radii);
  var n = 0u;
  for (var ty = box.y; ty < box.w; ty++) {
    for (var tx = box.x; tx < box.z; tx++) {
      if (touches(params, g, tx, ty)) { n++; }
    }
  }
  return n;
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn gather_counts(@builtin(global_invocation_id) gid: vec3<u32>) {
  let r = gid.x;
  if (r >= params.count) { return; }
  let g = order[r];
  if (sorted_keys[r] == NOT_FOUND) {
    ranks[g] = NOT_FOUND;
    offsets[r] = 0u;
    return;
  }
  ranks[g] = r;
  offsets[r] = touched_tiles(projected[g]);
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn count_blocks(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.x;
  if (b * BLOCK >= params.count) { return; }
  var s = 0u;
  for (var j = b * BLOCK; j < min(params.count, (b + 1u) * BLOCK); j++) { s += offsets[j]; }
  block_sums[b] = s;
}

@compute @workgroup_size(1)
fn count_top() {
  var s = 0u;
  let blocks = (params.count + BLOCK - 1u) / BLOCK;
  for (var b = 0u; b < blocks; b++) {
    let v = block_sums[b];
    block_sums[b] = s;
    s += v;
  }
  control.isect_total = s;
  counts[1] = min(s, params.capacity);
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn count_apply(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.x;
  if (b * BLOCK >= params.count) { return; }
  var s = block_sums[b];
  for (var j = b * BLOCK; j < min(params.count, (b + 1u) * BLOCK); j++) {
    let v = offsets[j];
    offsets[j] = s;
    s += v;
  }
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn emit_pairs(@builtin(global_invocation_id) gid: vec3<u32>) {
  let r = gid.x;
  if (r >= params.count || sorted_keys[r] == NOT_FOUND) { return; }
  let gi = order[r];
  let g = projected[gi];
  let box = tile_box(params, g.xy, g.radii);
  var k = offsets[r];
  for (var ty = box.y; ty < box.w; ty++) {
    for (var tx = box.x; tx < box.z; tx++) {
      if (!touches(params, g, tx, ty)) { continue; }
      if (k < params.capacity) {
        tile_keys[k] = ty * params.tiles_x + tx;
        tile_vals[k] = gi;
      }
      k++;
    }
  }
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn tile_ranges(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  // Two-dimensional dispatch: the lists may hold more than 65535 workgroups of ids.
  let k = gid.x + gid.y * groups.x * RASTER_WORKGROUP;
  let n = counts[1];
  if (k >= n) { return; }
  let t = tile_keys[k];
  if (k == 0u || tile_keys[k - 1u] != t) { ranges[t].x = k; }
  if (k + 1u == n || tile_keys[k + 1u] != t) { ranges[t].y = k + 1u; }
}
