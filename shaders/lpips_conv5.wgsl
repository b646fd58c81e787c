// LPIPS AlexNet stage: 5x5 conv, stride 1 (features.3), + bias + ReLU.
// Layouts and blocking: lpips_conv_common.wgsl. Each input row segment (8 values) is loaded once
// and feeds the five kx taps of the 4 output pixels.
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
    for (var ky = 0u; ky < 5u; ky++) {
      let at = row_start(t, ci, ky);
      let r0 = input[at];
      let r1 = input[at + 1u];
      let r2 = input[at + 2u];
      let r3 = input[at + 3u];
      let r4 = input[at + 4u];
      let r5 = input[at + 5u];
      let r6 = input[at + 6u];
      let r7 = input[at + 7u];
      acc = step(acc, widx, r0, r1, r2, r3);
      acc = step(acc, widx + cout4, r1, r2, r3, r4);
      acc = step(acc, widx + 2u * cout4, r2, r3, r4, r5);
      acc = step(acc, widx + 3u * cout4, r3, r4, r5, r6);
      acc = step(acc, widx + 4u * cout4, r4, r5, r6, r7);
      widx += 5u * cout4;
    }
  }
  store(t, acc);
}
