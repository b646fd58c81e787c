// Stage 3: per-tile lists of Gaussian ids in depth order, in three dispatches.
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

// Minimum over t in [lo, hi] of a t^2 + 2 b0 t + c0 (a > 0): the quadratic along one rectangle edge.
fn edge_min(a: f32, b0: f32, c0: f32, lo: f32, hi: f32) -> f32 {
  let t = clamp(-b0 / a, lo, hi);
  return (a * t + 2.0 * b0) * t + c0;
}

// True when Gaussian g may have alpha >= 1/255 at a pixel centre of tile (tx, ty): inside its box
// and the minimum of q = d^T conic d over the rectangle of the tile's pixel centres is at most
// q_skip, widened again (1% + 0.1) so float rounding here can never drop a pixel that the
// rasterizer's own test would keep. The tiled image is unchanged; thin or tilted ellipses
// simply skip the tiles of their box that they miss.
fn touches(g: ProjectedSplat, tx: u32, ty: u32) -> bool {
  let box = tile_box(params, g.xy, g.radii);
  if (!(tx >= box.x && tx < box.z && ty >= box.y && ty < box.w)) { return false; }
  let lo = vec2<f32>(f32(tx * TILE_SIZE), f32(ty * TILE_SIZE)) + 0.5 - g.xy;
  let hi = lo + f32(TILE_SIZE - 1u);
  if (lo.x <= 0.0 && hi.x >= 0.0 && lo.y <= 0.0 && hi.y >= 0.0) { return true; }
  let a = g.conic.x;
  let b = g.conic.y;
  let c = g.conic.z;
  // Edges x = lo.x, hi.x (quadratic in y) and y = lo.y, hi.y (quadratic in x).
  var q = edge_min(c, b * lo.x, a * lo.x * lo.x, lo.y, hi.y);
  q = min(q, edge_min(c, b * hi.x, a * hi.x * hi.x, lo.y, hi.y));
  q = min(q, edge_min(a, b * lo.y, c * lo.y * lo.y, lo.x, hi.x));
  q = min(q, edge_min(a, b * hi.y, c * hi.y * hi.y, lo.x, hi.x));
  return q <= g.q_skip * 1.01 + 0.1;
}

@compute @workgroup_size(TILE_BIN_WORKGROUP)
fn tile_count(@builtin(global_invocation_id) gid: vec3<u32>) {
  let tile = gid.x;
  if (tile >= params.tiles_x * params.tiles_y) { return; }
  let tx = tile % params.tiles_x;
  let ty = tile / params.tiles_x;
  var n = 0u;
  for (var r = 0u; r < control.visible; r++) {
    if (touches(projected[order[r]], tx, ty)) { n++; }
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
    if (touches(projected[g], tx, ty)) {
      ids[k] = g;
      k++;
    }
  }
}
