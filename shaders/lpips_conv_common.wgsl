// Shared part of the LPIPS AlexNet conv stages (lpips_conv3/5/11.wgsl): conv2d + bias + ReLU as
// a register-blocked implicit GEMM. Each invocation computes 8 output channels x 4 horizontally
// adjacent output pixels; the kernel-size-specific files unroll the kx loop (2-3x faster on
// SwiftShader than a loop) and load each input row segment once.
// input:  [B, Cin, Hp, Wp], already zero-padded by the layer's pad (so no bounds checks)
// weight: [Cin * K * K, Cout / 4] vec4, i.e. torch OIHW transposed to (I, Ky, Kx) x O
// bias:   [Cout / 4] vec4
// output: [B, Cout, Ho + 2 outPad, Wo + 2 outPad], written inside a zero border of outPad
// Invariant: Cout is a multiple of 8; reads past a row's end only feed outputs that are not stored.

#include "constants.wgsl"

struct Params {
  in_channels: u32,
  in_height: u32, // padded
  in_width: u32, // padded
  out_channels: u32,
  out_height: u32,
  out_width: u32,
  kernel: u32,
  stride: u32,
  out_pad: u32,
  batch: u32,
  blocks_per_row: u32, // ceil(out_width / 4)
  _pad0: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> bias: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;

// Accumulators: lo = channels c0..c0+3, hi = c0+4..c0+7; suffix = pixel ox0 + j.
struct Acc {
  lo0: vec4<f32>,
  lo1: vec4<f32>,
  lo2: vec4<f32>,
  lo3: vec4<f32>,
  hi0: vec4<f32>,
  hi1: vec4<f32>,
  hi2: vec4<f32>,
  hi3: vec4<f32>,
}

// Where one invocation works: image b, output row oy, first column ox0, first vec4 channel group c4.
struct Tile {
  b: u32,
  oy: u32,
  ox0: u32,
  c4: u32,
  valid: bool,
}

fn tile_of(gid: vec3<u32>) -> Tile {
  let block = gid.x;
  let valid = block < params.out_height * params.blocks_per_row && gid.z < params.batch;
  return Tile(gid.z, block / params.blocks_per_row, (block % params.blocks_per_row) * 4u, gid.y * 2u, valid);
}

fn init_acc(c4: u32) -> Acc {
  let l = bias[c4];
  let h = bias[c4 + 1u];
  return Acc(l, l, l, l, h, h, h, h);
}

// One kernel tap: weights of (ci, ky, kx) for 8 channels times the 4 pixels' input values.
fn step(a: Acc, widx: u32, i0: f32, i1: f32, i2: f32, i3: f32) -> Acc {
  let wl = weight[widx];
  let wh = weight[widx + 1u];
  return Acc(
    fma(wl, vec4<f32>(i0), a.lo0), fma(wl, vec4<f32>(i1), a.lo1), fma(wl, vec4<f32>(i2), a.lo2), fma(wl, vec4<f32>(i3), a.lo3),
    fma(wh, vec4<f32>(i0), a.hi0), fma(wh, vec4<f32>(i1), a.hi1), fma(wh, vec4<f32>(i2), a.hi2), fma(wh, vec4<f32>(i3), a.hi3),
  );
}

// Index of input row (ci, oy * stride + ky) at column ox0 * stride, in the padded input.
fn row_start(t: Tile, ci: u32, ky: u32) -> u32 {
  return ((t.b * params.in_channels + ci) * params.in_height + t.oy * params.stride + ky) * params.in_width + t.ox0 * params.stride;
}

fn store_pixel(t: Tile, j: u32, lo: vec4<f32>, hi: vec4<f32>) {
  let ox = t.ox0 + j;
  if (ox >= params.out_width) {
    return;
  }
  let ow = params.out_width + 2u * params.out_pad;
  let plane = (params.out_height + 2u * params.out_pad) * ow;
  let at = (t.b * params.out_channels + t.c4 * 4u) * plane + (t.oy + params.out_pad) * ow + ox + params.out_pad;
  let l = max(lo, vec4<f32>(0.0));
  let h = max(hi, vec4<f32>(0.0));
  output[at] = l.x;
  output[at + plane] = l.y;
  output[at + 2u * plane] = l.z;
  output[at + 3u * plane] = l.w;
  output[at + 4u * plane] = h.x;
  output[at + 5u * plane] = h.y;
  output[at + 6u * plane] = h.z;
  output[at + 7u * plane] = h.w;
}

fn store(t: Tile, a: Acc) {
  store_pixel(t, 0u, a.lo0, a.hi0);
  store_pixel(t, 1u, a.lo1, a.hi1);
  store_pixel(t, 2u, a.lo2, a.hi2);
  store_pixel(t, 3u, a.lo3, a.hi3);
}
