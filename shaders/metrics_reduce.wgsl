// Segmented sum: one workgroup per segment of `length` consecutive values, tree-reduced in
// workgroup memory. values: [segments, length]; sums[out_offset + s] = sum of segment s.
// Invariant: the summation order is fixed (strided partials, then a halving tree), so repeated
// runs give bit-identical results.

#include "constants.wgsl"

struct Params {
  length: u32,
  segments: u32,
  out_offset: u32,
  _pad0: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, read_write> sums: array<f32>;

var<workgroup> partial: array<f32, REDUCE_WORKGROUP>;

@compute @workgroup_size(REDUCE_WORKGROUP)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let seg = wid.x;
  var acc = 0.0;
  if (seg < params.segments) {
    let base = seg * params.length;
    for (var i = lid; i < params.length; i += REDUCE_WORKGROUP) {
      acc += values[base + i];
    }
  }
  partial[lid] = acc;
  workgroupBarrier();
  for (var stride = REDUCE_WORKGROUP / 2u; stride > 0u; stride = stride / 2u) {
    if (lid < stride) {
      partial[lid] += partial[lid + stride];
    }
    workgroupBarrier();
  }
  if (lid == 0u && seg < params.segments) {
    sums[params.out_offset + seg] = partial[0];
  }
}
