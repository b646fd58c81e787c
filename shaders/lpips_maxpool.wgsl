// LPIPS AlexNet stage: 3x3 max pool, stride 2, no padding (torch floor mode).
// input: [B, C, H, W] unpadded; output: [B, C, Ho + 2 outPad, Wo + 2 outPad] with the result
// inside a zero border of outPad (the next conv's padding), Ho = (H - 3) / 2 + 1.

#include "constants.wgsl"

struct Params {
  channels: u32,
  in_height: u32,
  in_width: u32,
  out_height: u32,
  out_width: u32,
  out_pad: u32,
  batch: u32,
  _pad0: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = params.out_height * params.out_width;
  let i = gid.x;
  let bc = gid.y; // b * channels + c
  if (i >= n || bc >= params.batch * params.channels) {
    return;
  }
  let ox = i % params.out_width;
  let oy = i / params.out_width;
  var m = -3.0e38;
  for (var dy = 0u; dy < 3u; dy++) {
    let row = (bc * params.in_height + oy * 2u + dy) * params.in_width + ox * 2u;
    m = max(m, max(input[row], max(input[row + 1u], input[row + 2u])));
  }
  let ow = params.out_width + 2u * params.out_pad;
  let oh = params.out_height + 2u * params.out_pad;
  output[(bc * oh + oy + params.out_pad) * ow + ox + params.out_pad] = m;
}
