// View-only state of the play screen (Pinia setup store): what the viewport hides or solos, how
// unselected Gaussians are outlined (the legend's choice; 'auto' thins them out in a crowd), the
// uniform-scale lock, and the last render results per view for the render viewer. Nothing here
// is sent anywhere or costs a call; it is cleared when a new episode starts.
// Inputs: outliner / inspector toggles, the episode log. Outputs: `visible(records)` for the
// viewport, the lock flag, the kept renders.
// See docs/DESIGN.md section 7.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { hexToRgb } from '../../shared/math/color';
import type { Vec3 } from '../../shared/math/vec3';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import { processEvent } from './process-recorder';
import type { OutlineStyle } from '../viewport/outlines';

export type OutlineChoice = 'auto' | OutlineStyle;
/** Above this many Gaussians 'auto' draws the unselected ones as dots (three rings each stop reading). */
export const AUTO_RINGS_MAX = 60;

/** The style the viewport draws for a choice and a scene of n Gaussians. */
export function resolveOutlineStyle(choice: OutlineChoice, n: number): OutlineStyle {
  if (choice !== 'auto') return choice;
  return n <= AUTO_RINGS_MAX ? 'rings' : 'points';
}

export const usePlayViewStore = defineStore('play-view', () => {
  const hidden = ref<number[]>([]);
  const hiddenGroups = ref<string[]>([]);
  const solo = ref<string | null>(null);
  const uniformScale = ref(false);
  const outlineChoice = ref<OutlineChoice>('auto');
  /** Colour (#rrggbb) and group of new Gaussians (the add buttons, fills, photo placement). */
  const newColor = ref('#c8c8c8');
  const newGroup = ref('');
  const DEFAULT_NEW: Vec3 = [200 / 255, 200 / 255, 200 / 255];
  /** The swatch as [r, g, b] (a colour input always holds '#rrggbb'; the default otherwise). */
  const newRgb = computed<Vec3>(() => hexToRgb(newColor.value) ?? DEFAULT_NEW);

  function visible(records: readonly GaussianRecord[]): GaussianRecord[] {
    return records.filter((r) => {
      if (hidden.value.includes(r.id)) return false;
      if (r.group !== undefined && hiddenGroups.value.includes(r.group)) return false;
      return solo.value === null || r.group === solo.value;
    });
  }

  function toggleHidden(id: number): void {
    hidden.value = hidden.value.includes(id) ? hidden.value.filter((x) => x !== id) : [...hidden.value, id];
    processEvent('outliner.hide', { id, hidden: hidden.value.includes(id) });
  }

  function toggleGroup(g: string): void {
    hiddenGroups.value = hiddenGroups.value.includes(g) ? hiddenGroups.value.filter((x) => x !== g) : [...hiddenGroups.value, g];
    processEvent('outliner.hide', { group: g, hidden: hiddenGroups.value.includes(g) });
  }

  function toggleSolo(g: string): void {
    solo.value = solo.value === g ? null : g;
    processEvent('outliner.solo', { group: solo.value ?? '' });
  }

  function clear(): void {
    hidden.value = [];
    hiddenGroups.value = [];
    solo.value = null;
  }

  return { hidden, hiddenGroups, solo, uniformScale, outlineChoice, newColor, newRgb, newGroup, visible, toggleHidden, toggleGroup, toggleSolo, clear };
});
