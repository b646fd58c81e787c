// Portable LSD radix sort of (u32 key, u32 value) pairs, 8 bits per pass, stable; the CPU
// reference is radixSortPairs (src/shared/raster/cpu/radix.ts). No workgroup barriers, no
// subgroups and no single-pass decoupled look-back (WebGPU guarantees no forward progress between
// workgroups): each invocation owns one chunk of `chunk` consecutive keys, and a pass is five
// dispatches: radix_hist (digit counts per chunk, digit-major: hist[d * chunks + c]),
// radix_scan_blocks / radix_scan_top / radix_scan_apply (exclusive prefix sum over hist in
// 256-entry blocks, one block per chunk), radix_scatter (each chunk walks its keys in order and
// writes each to the next slot of its digit: stable). The number of keys is counts[count_index]
// (a fixed N, or the intersection count a previous stage wrote), at most chunk * chunks.
#include "constants.wgsl"

const RADIX: u32 = 256u;

struct SortParams {
  shift: u32, // bit offset of this pass's digit
  chunk: u32, // keys per invocation
  chunks: u32, // invocations (chunks) of this sort
  count_index: u32, // which entry of counts holds the number of keys
}

@group(0) @binding(0) var<uniform> sp: SortParams;
@group(0) @binding(1) var<storage, read> counts: array<u32>;
@group(0) @binding(2) var<storage, read> keys_in: array<u32>;
@group(0) @binding(3) var<storage, read> vals_in: array<u32>;
@group(0) @binding(4) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(5) var<storage, read_write> vals_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> hist: array<u32>; // [RADIX * chunks]
@group(0) @binding(7) var<storage, read_write> block_sums: array<u32>; // [chunks]

fn chunk_range(c: u32) -> vec2<u32> {
  let n = counts[sp.count_index];
  let start = min(n, c * sp.chunk);
  return vec2<u32>(start, min(n, start + sp.chunk));
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn radix_hist(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c >= sp.chunks) { return; }
  var local: array<u32, 256>;
  let r = chunk_range(c);
  for (var i = r.x; i < r.y; i++) {
    let d = (keys_in[i] >> sp.shift) & (RADIX - 1u);
    local[d] += 1u;
  }
  for (var d = 0u; d < RADIX; d++) { hist[d * sp.chunks + c] = local[d]; }
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn radix_scan_blocks(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.x;
  if (b >= sp.chunks) { return; }
  var s = 0u;
  for (var j = 0u; j < RADIX; j++) { s += hist[b * RADIX + j]; }
  block_sums[b] = s;
}

@compute @workgroup_size(1)
fn radix_scan_top() {
  var s = 0u;
  for (var b = 0u; b < sp.chunks; b++) {
    let v = block_sums[b];
    block_sums[b] = s;
    s += v;
  }
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn radix_scan_apply(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.x;
  if (b >= sp.chunks) { return; }
  var s = block_sums[b];
  for (var j = 0u; j < RADIX; j++) {
    let v = hist[b * RADIX + j];
    hist[b * RADIX + j] = s;
    s += v;
  }
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn radix_scatter(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c >= sp.chunks) { return; }
  var next: array<u32, 256>;
  for (var d = 0u; d < RADIX; d++) { next[d] = hist[d * sp.chunks + c]; }
  let r = chunk_range(c);
  for (var i = r.x; i < r.y; i++) {
    let k = keys_in[i];
    let d = (k >> sp.shift) & (RADIX - 1u);
    let dst = next[d];
    next[d] = dst + 1u;
    keys_out[dst] = k;
    vals_out[dst] = vals_in[i];
  }
}
