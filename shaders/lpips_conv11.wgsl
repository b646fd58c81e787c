// LPIPS AlexNet stage: 11x11 conv, stride 4 (features.0), + bias + ReLU.
// Layouts and blocking: lpips_conv_common.wgsl. The 4 output pixels read input columns
// 4j + kx (j < 4, kx < 11), i.e. a 23-value row segment shared by all 11 kx taps.
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
    for (var ky = 0u; ky < 11u; ky++) {
      let at = row_start(t, ci, ky);
      let r0 = input[at + 0u];
      let r1 = input[at + 1u];
      let r2 = input[at + 2u];
      let r3 = input[at + 3u];
      let r4 = input[at + 4u];
      let r5 = input[at + 5u];
      let r6 = input[at + 6u];
      let r7 = input[at + 7u];
      let r8 = input[at + 8u];
      let r9 = input[at + 9u];
      let r10 = input[at + 10u];
      let r11 = input[at + 11u];
      let r12 = input[at + 12u];
      let r13 = input[at + 13u];
      let r14 = input[at + 14u];
      let r15 = input[at + 15u];
      let r16 = input[at + 16u];
      let r17 = input[at + 17u];
      let r18 = input[at + 18u];
      let r19 = input[at + 19u];
      let r20 = input[at + 20u];
      let r21 = input[at + 21u];
      let r22 = input[at + 22u];
      acc = step(acc, widx, r0, r4, r8, r12);
      acc = step(acc, widx + 1u * cout4, r1, r5, r9, r13);
      acc = step(acc, widx + 2u * cout4, r2, r6, r10, r14);
      acc = step(acc, widx + 3u * cout4, r3, r7, r11, r15);
      acc = step(acc, widx + 4u * cout4, r4, r8, r12, r16);
      acc = step(acc, widx + 5u * cout4, r5, r9, r13, r17);
      acc = step(acc, widx + 6u * cout4, r6, r10, r14, r18);
      acc = step(acc, widx + 7u * cout4, r7, r11, r15, r19);
      acc = step(acc, widx + 8u * cout4, r8, r12, r16, r20);
      acc = step(acc, widx + 9u * cout4, r9, r13, r17, r21);
      acc = step(acc, widx + 10u * cout4, r10, r14, r18, r22);
      widx += 11u * cout4;
    }
  }
  store(t, acc);
}
