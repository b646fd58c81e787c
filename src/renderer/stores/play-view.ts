// View-only state of the play screen (Pinia setup store): what the viewport hides or solos, how
// unselected Gaussians are drawn (the legend's choice; 'auto' draws solid bodies, as a render shows them), the
// uniform-scale lock, the new-Gaussian colour and group, the Transform panel's typed and not yet
// staged values per target, whether a multi-call commit still asks, and the part view's part.
// Nothing here is sent anywhere or costs a call; all of it is back to its defaults when a new
// episode starts (issue 42: the colour and group of one episode never open the next).
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
import { emptyForm, type TransformForm } from './typed-fields';

export type OutlineChoice = 'auto' | OutlineStyle;
/**
 * The style the viewport draws for a choice. 'auto' draws solid bodies at every scene size: a fill
 * renders opaque, and rings of its Gaussians read as a see-through cage (issue 42's "a soft fill
 * looks translucent"); solids also stay readable in a crowd, where rings do not.
 */
export function resolveOutlineStyle(choice: OutlineChoice): OutlineStyle {
  return choice === 'auto' ? 'solid' : choice;
}

export const usePlayViewStore = defineStore('play-view', () => {
  const hidden = ref<number[]>([]);
  const hiddenGroups = ref<string[]>([]);
  const solo = ref<string | null>(null);
  const uniformScale = ref(false);
  const outlineChoice = ref<OutlineChoice>('auto');
  /** Colour (#rrggbb) and group of new Gaussians (the add buttons, fills, photo placement). */
  const DEFAULT_COLOR = '#c8c8c8';
  const newColor = ref(DEFAULT_COLOR);
  const newGroup = ref('');
  /** Transform values typed and not staged, per target (`g:name` or `ids:1,2,3`): a selection change never drops them. */
  const forms = ref<Record<string, TransformForm>>({});
  /** "Don't ask again this episode" for commits that spend more than one call. */
  const dontAskSpend = ref(false);
  /** The group the part view shows (null: off). */
  const partView = ref<string | null>(null);
  /** The shade tool's preview: new colours by id, drawn in the outlines until staged or closed (null: none). */
  const shadePreview = ref<Record<number, Vec3> | null>(null);
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

  /** The form of a target, created empty on first use (reactive: fields bind to it directly). */
  function formFor(key: string): TransformForm {
    if (!forms.value[key]) forms.value[key] = emptyForm();
    return forms.value[key];
  }

  function setForm(key: string, form: TransformForm): void {
    forms.value[key] = form;
  }

  function clear(): void {
    hidden.value = [];
    hiddenGroups.value = [];
    solo.value = null;
    newColor.value = DEFAULT_COLOR;
    newGroup.value = '';
    forms.value = {};
    dontAskSpend.value = false;
    partView.value = null;
    shadePreview.value = null;
  }

  return { hidden, hiddenGroups, solo, uniformScale, outlineChoice, newColor, newRgb, newGroup, forms, dontAskSpend, partView, shadePreview, visible, toggleHidden, toggleGroup, toggleSolo, formFor, setForm, clear };
});
