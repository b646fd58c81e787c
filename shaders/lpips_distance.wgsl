// LPIPS tap stage: per pixel, sum over channels of lin[c] * (a - b)^2 of normalised features.
// a, b: [B, C, N] normalised taps of the renders and the photos; lin: [C];
// output: [B, N] per-pixel distances, averaged over N by metrics_reduce.

#include "constants.wgsl"

struct Params {
  channels: u32,
  pixels: u32,
  batch: u32,
  _pad0: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read> lin: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let img = gid.y;
  if (i >= params.pixels || img >= params.batch) {
    return;
  }
  var sum = 0.0;
  for (var c = 0u; c < params.channels; c++) {
    let at = (img * params.channels + c) * params.pixels + i;
    let d = a[at] - b[at];
    sum += lin[c] * d * d;
  }
  output[img * params.pixels + i] = sum;
}
