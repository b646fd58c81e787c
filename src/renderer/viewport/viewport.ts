// The 3D viewport: Z-up scene with the bounds cube, axis marker and the person's Gaussians as
// outlines; an orbit camera that can snap to any explicit camera; click / shift-click / Alt-drag
// box selection (a second click at the same place cycles through every Gaussian under the
// cursor, nearest first, so one inside a bigger one can be picked); a TransformControls gizmo on
// a pivot at the selection's centroid, with optional rotation snapping.
// Inputs: records + selection (setScene), a camera to snap to. Outputs: callbacks with the
// selection and with one rigid move per finished gizmo drag. Invariant: the viewport never edits
// records itself; a drag only previews until the store stages it and calls setScene again.
import { DirectionalLight, HemisphereLight, Matrix4, Quaternion, Raycaster, Vector2, Vector3, type Group } from 'three';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import { quatToEuler } from '../../shared/math/quaternion';
import type { Vec3 } from '../../shared/math/vec3';
import { centroidOf, disposeOutline, gaussianIdOf, gaussianOutline, type OutlineStyle } from './outlines';
import { OrbitStage } from './stage';
import type { Projected } from './select-math';
import type { GizmoSpace, PivotChoice } from './pivot';

export type GizmoMode = 'translate' | 'rotate' | 'scale';

export interface GizmoMove {
  translate?: Vec3;
  rotateDeg?: number | Vec3;
  /** World-axis factors, or (`local`, the gizmo in local space) along the Gaussian's own axes; a set in local space scales uniformly. */
  scale?: Vec3;
  local: boolean;
}

export interface ViewportEvents {
  select(ids: number[], mode: 'replace' | 'toggle' | 'add'): void;
  move(move: GizmoMove): void;
  cameraChanged(): void;
  /** A gizmo drag began or ended (the process log notes both). */
  drag?(phase: 'start' | 'end', mode: GizmoMode): void;
}

const CLICK_SLOP_PX = 4;

export class Viewport extends OrbitStage {
  private readonly gaussians = new Map<number, Group>();
  private records: GaussianRecord[] = [];
  private outlineStyle: OutlineStyle = 'rings';
  private selection: number[] = [];
  private dragStart: { pivot: Matrix4; outlines: Map<number, Matrix4> } | null = null;
  private down: { x: number; y: number; box: boolean; shift: boolean } | null = null;
  private readonly boxEl: HTMLDivElement;
  private editable = true;
  private space: GizmoSpace = 'world';
  private pivotChoice: PivotChoice = 'centre';
  /** Where the last click landed and what lay under it (for cycling). */
  private lastClick: { x: number; y: number; ids: number[] } | null = null;

  constructor(host: HTMLElement, private readonly events: ViewportEvents) {
    // Points go to the bounds cube's edge ([-1, 1]); the stage calls back on camera changes.
    super(host, { testId: 'viewport-canvas', centreLimit: 1, onCamera: () => events.cameraChanged() });
    // Lights only touch the part view's solid ellipsoids (outlines are unlit lines).
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(1.5, -1, 2.5);
    this.scene.add(new HemisphereLight(0xffffff, 0x303040, 1.1), sun);
    this.boxEl = document.createElement('div');
    this.boxEl.className = 'box-select';
    host.appendChild(this.boxEl);
    const el = this.renderer.domElement;
    el.addEventListener('pointerdown', (e) => this.onDown(e));
    el.addEventListener('pointermove', (e) => this.onMove(e));
    el.addEventListener('pointerup', (e) => this.onUp(e));
  }

  /** With editing off (episode over, a call in flight) the gizmo is hidden and clicks only select. */
  setEditable(on: boolean): void {
    this.editable = on;
    this.gizmo.enabled = on;
    this.placePivot();
    this.requestRender();
  }

  setMode(mode: GizmoMode): void {
    this.gizmo.setMode(mode);
    this.requestRender();
  }

  /** Rotation snapping of the gizmo in degrees (null: free). */
  setRotationSnap(deg: number | null): void {
    this.gizmo.setRotationSnap(deg === null ? null : (deg * Math.PI) / 180);
  }

  /**
   * Gizmo axes (world, or the first selected Gaussian's own) and where it sits (the selection's
   * centre, or the world origin; individual origins keep it at the centre and turn each outline
   * about its own centre while dragging).
   */
  setGizmoFrame(space: GizmoSpace, pivot: PivotChoice): void {
    this.space = space;
    this.pivotChoice = pivot;
    this.placePivot();
    this.requestRender();
  }

  /** Client-pixel projections of the drawn Gaussians' centres (those in front of the camera). */
  screenCentres(): Projected[] {
    const rect = this.renderer.domElement.getBoundingClientRect();
    return this.records.flatMap((g) => {
      const p = this.toScreen(g.pos, rect);
      return p ? [{ id: g.id, x: p.x, y: p.y }] : [];
    });
  }

  get mode(): GizmoMode {
    return this.gizmo.mode as GizmoMode;
  }

  /** How unselected Gaussians are drawn (outlines.ts); redraws at once. */
  setOutlineStyle(style: OutlineStyle): void {
    this.outlineStyle = style;
    this.setScene(this.records, this.selection);
  }

  /** Redraws the outlines of `records` and places the gizmo on the selection. */
  setScene(records: readonly GaussianRecord[], selection: readonly number[]): void {
    for (const g of this.gaussians.values()) {
      this.scene.remove(g);
      disposeOutline(g);
    }
    this.gaussians.clear();
    this.records = [...records];
    this.selection = [...selection];
    for (const r of records) {
      const g = gaussianOutline(r, selection.includes(r.id), this.outlineStyle);
      this.gaussians.set(r.id, g);
      this.scene.add(g);
    }
    this.placePivot();
    this.requestRender();
  }

  private placePivot(): void {
    const chosen = this.records.filter((r) => this.selection.includes(r.id));
    if (chosen.length === 0 || !this.editable) {
      this.gizmo.detach();
      return;
    }
    if (this.pivotChoice === 'origin') this.pivot.position.set(0, 0, 0);
    else this.pivot.position.copy(centroidOf(chosen));
    this.pivot.scale.set(1, 1, 1);
    const first = this.space === 'local' ? chosen[0] : null;
    this.pivot.quaternion.copy(first ? new Quaternion(first.quat[1], first.quat[2], first.quat[3], first.quat[0]) : new Quaternion());
    this.pivot.updateMatrixWorld();
    this.gizmo.setSpace(this.space);
    this.gizmo.attach(this.pivot);
  }

  protected beginDrag(): void {
    this.pivot.updateMatrixWorld();
    const outlines = new Map<number, Matrix4>();
    for (const id of this.selection) {
      const g = this.gaussians.get(id);
      if (g) outlines.set(id, g.matrix.clone());
    }
    this.dragStart = { pivot: this.pivot.matrixWorld.clone(), outlines };
    this.events.drag?.('start', this.gizmo.mode as GizmoMode);
  }

  protected previewDrag(): void {
    if (!this.dragStart) return;
    this.pivot.updateMatrixWorld();
    const delta = this.pivot.matrixWorld.clone().multiply(this.dragStart.pivot.clone().invert());
    const c = new Vector3().setFromMatrixPosition(this.dragStart.pivot);
    for (const [id, m0] of this.dragStart.outlines) {
      const g = this.gaussians.get(id);
      if (!g) continue;
      // Individual origins: the same delta conjugated to the outline's own centre.
      const own = this.pivotChoice === 'individual' ? new Vector3().setFromMatrixPosition(m0).sub(c) : null;
      const d = own ? new Matrix4().makeTranslation(own.x, own.y, own.z).multiply(delta).multiply(new Matrix4().makeTranslation(-own.x, -own.y, -own.z)) : delta.clone();
      d.multiply(m0).decompose(g.position, g.quaternion, g.scale);
    }
  }

  protected endDrag(): void {
    const start = this.dragStart;
    this.dragStart = null;
    if (!start) return;
    this.events.drag?.('end', this.gizmo.mode as GizmoMode);
    const p0 = new Vector3();
    const q0 = new Quaternion();
    const s0 = new Vector3();
    start.pivot.decompose(p0, q0, s0);
    const local = this.space === 'local';
    const move: GizmoMove = { local };
    const mode = this.gizmo.mode as GizmoMode;
    if (mode === 'translate') {
      const d = this.pivot.position.clone().sub(p0);
      if (d.lengthSq() < 1e-12) return;
      move.translate = [d.x, d.y, d.z];
    } else if (mode === 'rotate') {
      const dq = this.pivot.quaternion.clone().multiply(q0.clone().invert());
      const euler = quatToEuler([dq.w, dq.x, dq.y, dq.z]);
      if (euler.every((a) => Math.abs(a) < 1e-6)) return;
      move.rotateDeg = Math.abs(euler[0]) < 1e-6 && Math.abs(euler[1]) < 1e-6 ? euler[2] : euler;
    } else {
      const s = this.pivot.scale;
      if (Math.abs(s.x - 1) + Math.abs(s.y - 1) + Math.abs(s.z - 1) < 1e-9) return;
      move.scale = [Math.max(0.01, Math.abs(s.x)), Math.max(0.01, Math.abs(s.y)), Math.max(0.01, Math.abs(s.z))];
      // A set scaled along one member's own axes has no per-world-axis form: it scales uniformly.
      if (local && this.selection.length > 1) move.scale = [Math.cbrt(move.scale[0] * move.scale[1] * move.scale[2]), Math.cbrt(move.scale[0] * move.scale[1] * move.scale[2]), Math.cbrt(move.scale[0] * move.scale[1] * move.scale[2])];
    }
    this.events.move(move);
  }

  private pointer(e: PointerEvent): Vector2 {
    const rect = this.renderer.domElement.getBoundingClientRect();
    return new Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
  }

  private onDown(e: PointerEvent): void {
    if (e.button !== 0) {
      this.down = null;
      return;
    }
    // A press on the gizmo is still recorded: released without moving it is a click, so the
    // gizmo never hides the Gaussians under it from picking (a real drag exceeds the slop).
    const onGizmo = this.gizmo.dragging || this.gizmo.axis !== null;
    const box = e.altKey && !onGizmo;
    if (box) this.orbit.enabled = false;
    this.down = { x: e.clientX, y: e.clientY, box, shift: e.shiftKey };
  }

  private onMove(e: PointerEvent): void {
    if (!this.down?.box) return;
    const rect = this.host.getBoundingClientRect();
    const x0 = Math.min(this.down.x, e.clientX) - rect.left;
    const y0 = Math.min(this.down.y, e.clientY) - rect.top;
    Object.assign(this.boxEl.style, { display: 'block', left: `${x0}px`, top: `${y0}px`, width: `${Math.abs(e.clientX - this.down.x)}px`, height: `${Math.abs(e.clientY - this.down.y)}px` });
  }

  private onUp(e: PointerEvent): void {
    const down = this.down;
    this.down = null;
    this.boxEl.style.display = 'none';
    if (!down) return;
    if (down.box) {
      this.orbit.enabled = true;
      this.events.select(this.idsInBox(down.x, down.y, e.clientX, e.clientY), down.shift ? 'add' : 'replace');
      return;
    }
    if (Math.hypot(e.clientX - down.x, e.clientY - down.y) > CLICK_SLOP_PX) return;
    const ray = new Raycaster();
    ray.setFromCamera(this.pointer(e), this.camera);
    const picks = [...this.gaussians.values()].flatMap((g) => g.children.filter((c) => c.userData.pick === true));
    const ids = [...new Set(ray.intersectObjects(picks, false).map((h) => gaussianIdOf(h.object)).filter((x): x is number => x !== null))];
    const last = this.lastClick;
    this.lastClick = { x: e.clientX, y: e.clientY, ids };
    if (ids.length === 0) {
      if (!down.shift) this.events.select([], 'replace');
      return;
    }
    let id = ids[0];
    const again = last !== null && Math.hypot(e.clientX - last.x, e.clientY - last.y) <= CLICK_SLOP_PX && last.ids.join() === ids.join();
    if (again && !down.shift && this.selection.length === 1) {
      const at = ids.indexOf(this.selection[0]);
      if (at >= 0) id = ids[(at + 1) % ids.length];
    }
    this.events.select([id], down.shift ? 'toggle' : 'replace');
  }

  /**
   * Frames a part: the camera looks at `centre` from the direction (azimuth, elevation in
   * degrees, Z up) at the distance where a sphere of `radius` fills about 90 % of the view.
   */
  framePart(centre: readonly number[], radius: number, azimuthDeg: number, elevationDeg: number): void {
    // The narrower of the two view angles decides (a tall, narrow viewport is limited by its width).
    const vHalf = (this.camera.fov * Math.PI) / 360;
    const half = Math.min(vHalf, Math.atan(Math.tan(vHalf) * this.camera.aspect));
    const d = Math.max(0.05, radius / Math.sin(half) / 0.9);
    const az = (azimuthDeg * Math.PI) / 180;
    const el = (Math.max(-89, Math.min(89, elevationDeg)) * Math.PI) / 180;
    this.setView([centre[0] + d * Math.cos(el) * Math.cos(az), centre[1] + d * Math.cos(el) * Math.sin(az), centre[2] + d * Math.sin(el)], centre);
  }

  /** Ids whose centre projects inside the screen rectangle between two client points. */
  idsInBox(x0: number, y0: number, x1: number, y1: number): number[] {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const [l, r] = [Math.min(x0, x1), Math.max(x0, x1)];
    const [t, b] = [Math.min(y0, y1), Math.max(y0, y1)];
    return this.records
      .filter((g) => {
        const p = this.toScreen(g.pos, rect);
        return p !== null && p.x >= l && p.x <= r && p.y >= t && p.y <= b;
      })
      .map((g) => g.id);
  }

  dispose(): void {
    for (const g of this.gaussians.values()) disposeOutline(g);
    this.boxEl.remove();
    this.disposeStage();
  }
}
