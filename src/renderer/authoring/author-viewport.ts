// The authoring viewport: the object's parts as flat-shaded meshes inside the play view's bounds
// cube and axis marker (Z up), an orbit camera that snaps to explicit cameras, click / shift-click
// selection, and a TransformControls gizmo on a pivot (the part's own frame for one part, the
// centroid for several) that moves, turns or resizes the selection.
// Inputs: parts + selection (setParts). Outputs: callbacks with the selection and, once per
// finished drag, the new pose of every dragged part. Invariant: the viewport never edits parts;
// a drag only previews until the store applies it and calls setParts again.
import { AmbientLight, DirectionalLight, Matrix4, Raycaster, Vector2, Vector3, type Mesh } from 'three';
import type { AuthorPart } from '../../shared/api/author';
import { LIGHT_DIR } from '../../shared/authoring/raycast';
import type { Vec3 } from '../../shared/authoring/primitives';
import { OrbitStage } from '../viewport/stage';
import { disposeMesh, partMesh, poseOfMesh } from './meshes';

export type AuthorGizmoMode = 'translate' | 'rotate' | 'scale';

export interface PartPose {
  index: number;
  pos: Vec3;
  rot: Vec3;
  dims: Vec3;
}

export interface AuthorViewportEvents {
  select(index: number | null, additive: boolean): void;
  moved(poses: PartPose[]): void;
  cameraChanged(): void;
}

const CLICK_SLOP_PX = 4;

export class AuthorViewport extends OrbitStage {
  private meshes: Mesh[] = [];
  private parts: AuthorPart[] = [];
  private selection: number[] = [];
  private dragStart: { pivot: Matrix4; meshes: Map<number, Matrix4> } | null = null;
  private down: { x: number; y: number; shift: boolean } | null = null;

  constructor(host: HTMLElement, private readonly events: AuthorViewportEvents) {
    // New parts appear inside [-0.8, 0.8]^3 so a default-sized part stays within the bounds.
    super(host, { testId: 'author-canvas', centreLimit: 0.8, onCamera: () => events.cameraChanged() });
    // The same studio light as the ray caster, so the meshes shade like the photos.
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.set(LIGHT_DIR[0] * 10, LIGHT_DIR[1] * 10, LIGHT_DIR[2] * 10);
    this.scene.add(new AmbientLight(0xffffff, 1.1), sun);
    const el = this.renderer.domElement;
    el.addEventListener('pointerdown', (e) => this.onDown(e));
    el.addEventListener('pointerup', (e) => this.onUp(e));
  }

  setMode(mode: AuthorGizmoMode): void {
    this.gizmo.setMode(mode);
    this.requestRender();
  }

  setParts(parts: readonly AuthorPart[], selection: readonly number[]): void {
    for (const m of this.meshes) {
      this.scene.remove(m);
      disposeMesh(m);
    }
    this.parts = [...parts];
    this.selection = selection.filter((i) => i < parts.length);
    this.meshes = parts.map((p, i) => partMesh(p, i, this.selection.includes(i)));
    for (const m of this.meshes) this.scene.add(m);
    this.placePivot();
    this.requestRender();
  }

  private placePivot(): void {
    const chosen = this.selection.map((i) => this.meshes[i]).filter((m): m is Mesh => m !== undefined);
    if (chosen.length === 0) {
      this.gizmo.detach();
      return;
    }
    const c = new Vector3();
    for (const m of chosen) c.add(m.position);
    this.pivot.position.copy(c.multiplyScalar(1 / chosen.length));
    this.pivot.quaternion.copy(chosen.length === 1 ? chosen[0].quaternion : this.pivot.quaternion.identity());
    this.pivot.scale.set(1, 1, 1);
    this.pivot.updateMatrixWorld();
    this.gizmo.setSpace(chosen.length === 1 ? 'local' : 'world');
    this.gizmo.attach(this.pivot);
  }

  protected beginDrag(): void {
    this.pivot.updateMatrixWorld();
    const meshes = new Map<number, Matrix4>();
    for (const i of this.selection) {
      const m = this.meshes[i];
      if (m) {
        m.updateMatrix();
        meshes.set(i, m.matrix.clone());
      }
    }
    this.dragStart = { pivot: this.pivot.matrixWorld.clone(), meshes };
  }

  /** Applies the pivot's change since the drag began to every selected mesh. */
  protected previewDrag(): void {
    if (!this.dragStart) return;
    this.pivot.updateMatrixWorld();
    const delta = this.pivot.matrixWorld.clone().multiply(this.dragStart.pivot.clone().invert());
    for (const [i, m0] of this.dragStart.meshes) {
      const mesh = this.meshes[i];
      delta.clone().multiply(m0).decompose(mesh.position, mesh.quaternion, mesh.scale);
    }
  }

  protected endDrag(): void {
    const start = this.dragStart;
    this.dragStart = null;
    if (!start) return;
    this.previewDrag();
    const poses = [...start.meshes.keys()].map((i) => ({ index: i, ...poseOfMesh(this.meshes[i], this.parts[i]) }));
    this.events.moved(poses);
  }

  private pointer(e: PointerEvent): Vector2 {
    const rect = this.renderer.domElement.getBoundingClientRect();
    return new Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
  }

  private onDown(e: PointerEvent): void {
    this.down = e.button === 0 && !this.gizmo.dragging && this.gizmo.axis === null ? { x: e.clientX, y: e.clientY, shift: e.shiftKey } : null;
  }

  private onUp(e: PointerEvent): void {
    const down = this.down;
    this.down = null;
    if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > CLICK_SLOP_PX) return;
    const ray = new Raycaster();
    ray.setFromCamera(this.pointer(e), this.camera);
    const hit = ray.intersectObjects(this.meshes, false)[0];
    const index = hit ? (hit.object.userData.index as number) : null;
    if (index === null && down.shift) return;
    this.events.select(index, down.shift);
  }

  /** Screen position of a part's centre (tests click parts with it). */
  partScreen(index: number): { x: number; y: number } | null {
    const p = this.parts[index];
    return p ? this.toScreen(p.pos) : null;
  }

  dispose(): void {
    for (const m of this.meshes) disposeMesh(m);
    this.disposeStage();
  }
}
