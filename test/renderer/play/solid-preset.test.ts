// The fill bar's solid preset (src/renderer/stores/staging-aids.ts, AidsBar.vue; issue 30 item 4):
// its count follows the radius, centres SOLID_SPACING apart in world units (the sphere add
// preset's size), so a body twice as wide gets about eight times the Gaussians, up to MAX_FILL.
import { beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { fillShape, MAX_FILL, shapeVolume, solidCount, SOLID_SPACING } from '../../../src/renderer/stores/staging-aids';
import { PRESET_SCALES } from '../../../src/renderer/stores/staging';
import AidsBar from '../../../src/renderer/components/play/AidsBar.vue';
import type { Vec3 } from '../../../src/shared/math/vec3';

const cube = (r: number): Vec3 => [r, r, r];

describe('solid preset', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('counts more Gaussians for a bigger shape, at the add presets\' world size', () => {
    expect(SOLID_SPACING).toBe(PRESET_SCALES.sphere[0]);
    expect([0.1, 0.2, 0.25].map((r) => solidCount('sphere', cube(r)))).toEqual([8, 65, 128]);
    expect([0.1, 0.2].map((r) => solidCount('box', cube(r)))).toEqual([16, 125]);
    expect(solidCount('cylinder', cube(0.1))).toBe(12);
    expect(solidCount('sphere', cube(0.01))).toBe(1);
    expect(solidCount('box', cube(1))).toBe(MAX_FILL);
  });

  it('keeps the spacing of its fills the same whatever the radius', () => {
    for (const r of [0.1, 0.15, 0.25]) {
      const size = cube(r);
      const k = solidCount('sphere', size);
      expect(fillShape({ shape: 'sphere', centre: [0, 0, 0], size, count: k, color: [1, 1, 1], density: 'solid' })).toHaveLength(k);
      expect(Math.cbrt(shapeVolume('sphere', size) / k) / SOLID_SPACING).toBeCloseTo(1, 1);
    }
  });

  it('sets the count for the radius typed in the fill bar', async () => {
    const bar = mount(AidsBar, { props: { disabled: false, focus: () => [0, 0, 0] as Vec3 } });
    const count = (): string => (bar.get('[data-testid="fill-count"]').element as HTMLInputElement).value;
    for (const [r, n] of [[0.1, '8'], [0.25, '128']] as const) {
      await bar.get('[data-testid="fill-r"]').setValue(String(r));
      await bar.get('[data-testid="fill-solid"]').trigger('click');
      expect(count()).toBe(n);
    }
    expect((bar.get('[data-testid="fill-density"]').element as HTMLSelectElement).value).toBe('solid');
  });
});
