// LPIPS tap stage: divides each pixel's feature vector by (its L2 norm + 1e-10).
// input: [B, C, H + 2 pad, W + 2 pad] (a conv output, possibly padded for the next conv);
// output: [B, C, H, W] compact, unit-length per pixel (zero vectors stay zero).

#include "constants.wgsl"

struct Params {
  channels: u32,
  height: u32,
  width: u32,
  pad: u32,
  batch: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

const EPS: f32 = 1e-10;

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = params.height * params.width;
  let i = gid.x;
  let b = gid.y;
  if (i >= n || b >= params.batch) {
    return;
  }
  let pw = params.width + 2u * params.pad;
  let ph = params.height + 2u * params.pad;
  let at = (i / params.width + params.pad) * pw + i % params.width + params.pad;
  var sq = 0.0;
  for (var c = 0u; c < params.channels; c++) {
    let v = input[(b * params.channels + c) * ph * pw + at];
    sq += v * v;
  }
  let inv = 1.0 / (sqrt(sq) + EPS);
  for (var c = 0u; c < params.channels; c++) {
    output[(b * params.channels + c) * n + i] = input[(b * params.channels + c) * ph * pw + at] * inv;
  }
}
