// Selection tools of the play view (Pinia setup store; issue 30 item 5, docs/DESIGN.md section 7):
// which screen tool is active (pick, rectangle, lasso, brush, sphere), the brush radius, the
// sphere's centre and radius, the grow distance, the gizmo's space and pivot, and the fly camera
// switch with its speed. Actions turn a tool's hits into the staging store's selection
// (set / add / remove, as SuperSplat's plain / Shift / Ctrl) and stage a gizmo move about the
// chosen pivot. Nothing here costs a call: selection is view state; a move is one staged edit.
// Inputs: hit ids from SelectionTools.vue, gizmo moves from ViewportPanel.vue.
// Invariant: tools select only what the viewport draws (hidden and unsoloed Gaussians are never hit).
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Vec3 } from '../../shared/math/vec3';
import type { TransformSpec } from '../../shared/scene/transform';
import { centroid } from '../../shared/scene/transform';
import { combine, grow as growIds, idsInSphere, invert as invertIds, type SelectMode } from '../viewport/select-math';
import { aboutOwnOrigins, specAboutPivot, type GizmoSpace, type PivotChoice } from '../viewport/pivot';
import { useStagingStore } from './staging';
import { usePlayViewStore } from './play-view';

export type SelectTool = 'pick' | 'rect' | 'lasso' | 'brush' | 'sphere';

export const FLY_SPEEDS = [0.01, 0.02, 0.05, 0.1, 0.2] as const;

export const useSelectionToolsStore = defineStore('selection-tools', () => {
  const staging = useStagingStore();
  const view = usePlayViewStore();
  const tool = ref<SelectTool>('pick');
  /** Brush radius in screen pixels. */
  const brushRadius = ref(24);
  const sphereCentre = ref<Vec3>([0, 0, 0]);
  const sphereRadius = ref(0.3);
  /** World distance grow reaches from each selected centre. */
  const growDistance = ref(0.1);
  const space = ref<GizmoSpace>('world');
  const pivot = ref<PivotChoice>('centre');
  const fly = ref(false);
  /** Index into FLY_SPEEDS: world units per key step. */
  const flySpeedAt = ref(2);

  const visibleRecords = () => view.visible(staging.work.records);

  /** A tool's hits combined with the selection (hits outside the drawn scene are dropped). */
  function apply(hits: readonly number[], mode: SelectMode): void {
    const drawn = new Set(visibleRecords().map((r) => r.id));
    staging.select(combine(staging.selection, hits.filter((id) => drawn.has(id)), mode));
  }

  function selectSphere(mode: SelectMode): void {
    apply(idsInSphere(visibleRecords(), sphereCentre.value, sphereRadius.value), mode);
  }

  function selectAll(): void {
    staging.select(visibleRecords().map((r) => r.id));
  }

  function selectNone(): void {
    staging.select([]);
  }

  function invert(): void {
    staging.select(invertIds(visibleRecords().map((r) => r.id), staging.selection));
  }

  function grow(): void {
    staging.select(growIds(visibleRecords(), staging.selection, growDistance.value));
  }

  function flyStep(): number {
    return FLY_SPEEDS[flySpeedAt.value];
  }

  function changeFlySpeed(by: number): void {
    flySpeedAt.value = Math.max(0, Math.min(FLY_SPEEDS.length - 1, flySpeedAt.value + by));
  }

  /**
   * A gizmo move of the selection about the chosen pivot: about the centre it is the tool's own
   * transform; about the world origin the same transform with the translation that pivot adds;
   * about individual origins a field edit of each Gaussian.
   */
  function transform(spec: TransformSpec, label: string): void {
    const chosen = staging.selected;
    if (chosen.length === 0) return;
    if (pivot.value === 'centre' || (pivot.value === 'individual' && chosen.length === 1)) {
      staging.transformSelection(spec, label);
      return;
    }
    if (pivot.value === 'origin') {
      staging.transformSelection(specAboutPivot(spec, centroid(chosen), [0, 0, 0]), `${label} about the world origin`);
      return;
    }
    const moved = aboutOwnOrigins(chosen, spec);
    staging.stage({ kind: 'edit', label: `${label} about their own centres`, edits: moved.map((r) => ({ id: r.id, fields: { pos: r.pos, scale: r.scale, quat: r.quat } })) });
  }

  return {
    tool, brushRadius, sphereCentre, sphereRadius, growDistance, space, pivot, fly, flySpeedAt,
    apply, selectSphere, selectAll, selectNone, invert, grow, flyStep, changeFlySpeed, transform,
  };
});
