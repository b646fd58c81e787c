// LPIPS AlexNet stage: 3x3 conv, stride 1 (features.6, .8, .10), + bias + ReLU.
// Layouts and blocking: lpips_conv_common.wgsl. Each input row segment (6 values) is loaded once
// and feeds the three kx taps of the 4 output pixels.
#include "lpips_conv_common.wgsl"

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = tile_of(gid);
  if (!t.valid) {
    return;
  }
  let cout4 = params.out_channels / 4u;
  var acc = init_acc(t.c4);
  var widx = t.c4;
  for (var ci = 0u; ci < params.in_channels; ci++) {
    for (var ky = 0u; ky < 3u; ky++) {
      let at = row_start(t, ci, ky);
      let r0 = input[at];
      let r1 = input[at + 1u];
      let r2 = input[at + 2u];
      let r3 = input[at + 3u];
      let r4 = input[at + 4u];
      let r5 = input[at + 5u];
      acc = step(acc, widx, r0, r1, r2, r3);
      acc = step(acc, widx + cout4, r1, r2, r3, r4);
      acc = step(acc, widx + 2u * cout4, r2, r3, r4, r5);
      widx += 3u * cout4;
    }
  }
  store(t, acc);
}
