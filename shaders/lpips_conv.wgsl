// LPIPS AlexNet stage: conv2d + bias + ReLU as a register-blocked implicit GEMM.
// Each invocation computes 8 output channels x 4 horizontally adjacent output pixels.
// input:  [B, Cin, Hp, Wp], already zero-padded by the layer's pad (so no bounds checks)
// weight: [Cin * K * K, Cout / 4] vec4, i.e. torch OIHW transposed to (I, Ky, Kx) x O
// bias:   [Cout]
// output: [B, Cout, Ho + 2 outPad, Wo + 2 outPad], written inside a zero border of outPad
// Invariant: Cout is a multiple of 8; reads past a row's end only feed outputs that are not stored.

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

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let block = gid.x;
  let co4 = gid.y * 2u; // first of two vec4 channel groups
  let b = gid.z;
  if (block >= params.out_height * params.blocks_per_row || b >= params.batch) {
    return;
  }
  let oy = block / params.blocks_per_row;
  let ox0 = (block % params.blocks_per_row) * 4u;
  let s = params.stride;
  let k = params.kernel;
  let cout4 = params.out_channels / 4u;

  var lo0 = bias[co4];
  var lo1 = lo0;
  var lo2 = lo0;
  var lo3 = lo0;
  var hi0 = bias[co4 + 1u];
  var hi1 = hi0;
  var hi2 = hi0;
  var hi3 = hi0;

  var widx = co4;
  for (var ci = 0u; ci < params.in_channels; ci++) {
    let plane = (b * params.in_channels + ci) * params.in_height;
    for (var ky = 0u; ky < k; ky++) {
      var at = (plane + oy * s + ky) * params.in_width + ox0 * s;
      for (var kx = 0u; kx < k; kx++) {
        let wl = weight[widx];
        let wh = weight[widx + 1u];
        widx += cout4;
        let i0 = input[at];
        let i1 = input[at + s];
        let i2 = input[at + 2u * s];
        let i3 = input[at + 3u * s];
        at += 1u;
        lo0 = fma(wl, vec4<f32>(i0), lo0);
        lo1 = fma(wl, vec4<f32>(i1), lo1);
        lo2 = fma(wl, vec4<f32>(i2), lo2);
        lo3 = fma(wl, vec4<f32>(i3), lo3);
        hi0 = fma(wh, vec4<f32>(i0), hi0);
        hi1 = fma(wh, vec4<f32>(i1), hi1);
        hi2 = fma(wh, vec4<f32>(i2), hi2);
        hi3 = fma(wh, vec4<f32>(i3), hi3);
      }
    }
  }

  let ow = params.out_width + 2u * params.out_pad;
  let oh = params.out_height + 2u * params.out_pad;
  let row = oy + params.out_pad;
  let px = array<vec4<f32>, 8>(lo0, lo1, lo2, lo3, hi0, hi1, hi2, hi3);
  for (var j = 0u; j < 4u; j++) {
    let ox = ox0 + j;
    if (ox >= params.out_width) {
      break;
    }
    for (var c = 0u; c < 8u; c++) {
      let v = px[(c / 4u) * 4u + j][c % 4u];
      let co = co4 * 4u + c;
      output[((b * params.out_channels + co) * oh + row) * ow + ox + params.out_pad] = max(v, 0.0);
    }
  }
}
