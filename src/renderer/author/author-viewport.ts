// The authoring viewport: the object's parts as flat-shaded meshes inside the play view's bounds
// cube and axis marker (Z up), an orbit camera that snaps to explicit cameras, click / shift-click
// selection, and a TransformControls gizmo on a pivot (the part's own frame for one part, the
// centroid for several) that moves, turns or resizes the selection.
// Inputs: parts + selection (setParts). Outputs: callbacks with the selection and, once per
// finished drag, the new pose of every dragged part. Invariant: the viewport never edits parts;
// a drag only previews until the store applies it and calls setParts again.
import { AmbientLight, DirectionalLight, Matrix4, Object3D, PerspectiveCamera, Raycaster, Scene, Vector2, Vector3, WebGLRenderer, type Mesh } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { AuthorPart } from '../../shared/api/author';
import { LIGHT_DIR } from '../../shared/authoring/raycast';
import { orbitCamera } from '../../shared/camera/orbit';
import type { Vec3 } from '../../shared/authoring/primitives';
import type { Camera } from '../../shared/raster/types';
import { cameraFromPose, poseFromCamera } from '../viewport/camera';
import { axisMarker, boundsCube } from '../viewport/outlines';
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
const HOME_VIEW = { azimuth: 35, elevation: 25, distance: 6, fov: 45 };

export class AuthorViewport {
  readonly renderer: WebGLRenderer;
  readonly camera = new PerspectiveCamera(40, 1, 0.01, 100);
  private readonly scene = new Scene();
  private readonly orbit: OrbitControls;
  private readonly gizmo: TransformControls;
  private readonly pivot = new Object3D();
  private meshes: Mesh[] = [];
  private parts: AuthorPart[] = [];
  private selection: number[] = [];
  private dragStart: { pivot: Matrix4; meshes: Map<number, Matrix4> } | null = null;
  private down: { x: number; y: number; shift: boolean } | null = null;
  private frame = 0;

  constructor(private readonly host: HTMLElement, private readonly events: AuthorViewportEvents) {
    this.renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    host.appendChild(this.renderer.domElement);
    this.renderer.domElement.dataset.testid = 'author-canvas';
    this.camera.up.set(0, 0, 1);
    // The same studio light as the ray caster, so the meshes shade like the photos.
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.set(LIGHT_DIR[0] * 10, LIGHT_DIR[1] * 10, LIGHT_DIR[2] * 10);
    this.scene.add(new AmbientLight(0xffffff, 1.1), sun, boundsCube(), axisMarker(), this.pivot);
    this.orbit = new OrbitControls(this.camera, this.renderer.domElement);
    this.orbit.addEventListener('change', () => {
      this.requestRender();
      this.events.cameraChanged();
    });
    this.gizmo = new TransformControls(this.camera, this.renderer.domElement);
    this.gizmo.setSize(0.9);
    this.scene.add(this.gizmo.getHelper());
    this.gizmo.addEventListener('change', () => this.requestRender());
    this.gizmo.addEventListener('dragging-changed', (e) => {
      const dragging = (e as unknown as { value: boolean }).value;
      this.orbit.enabled = !dragging;
      if (dragging) this.beginDrag();
      else this.endDrag();
    });
    this.gizmo.addEventListener('objectChange', () => this.previewDrag());
    const el = this.renderer.domElement;
    el.addEventListener('pointerdown', (e) => this.onDown(e));
    el.addEventListener('pointerup', (e) => this.onUp(e));
    this.resize();
    this.home();
  }

  home(): void {
    this.snapTo(orbitCamera({ ...HOME_VIEW, width: 256, height: 256 }));
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

  private beginDrag(): void {
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
  private previewDrag(): void {
    if (!this.dragStart) return;
    this.pivot.updateMatrixWorld();
    const delta = this.pivot.matrixWorld.clone().multiply(this.dragStart.pivot.clone().invert());
    for (const [i, m0] of this.dragStart.meshes) {
      const mesh = this.meshes[i];
      delta.clone().multiply(m0).decompose(mesh.position, mesh.quaternion, mesh.scale);
    }
  }

  private endDrag(): void {
    const start = this.dragStart;
    this.dragStart = null;
    if (!start) return;
    this.previewDrag();
    const poses = [...start.meshes.keys()].map((i) => ({ index: i, ...poseOfMesh(this.meshes[i], this.parts[i].kind) }));
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

  /** Client-pixel position of a world point (null behind the camera). */
  toScreen(p: readonly number[]): { x: number; y: number } | null {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const v = new Vector3(p[0], p[1], p[2]).project(this.camera);
    if (v.z > 1) return null;
    return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
  }

  /** Screen position of the gizmo pivot and of a point on its translate arrow (tests drive drags with it). */
  gizmoScreen(axis: 'x' | 'y' | 'z', along = 0.45): { centre: { x: number; y: number }; handle: { x: number; y: number } } | null {
    if (!this.gizmo.object) return null;
    const c = this.pivot.position;
    const factor = c.distanceTo(this.camera.position) * Math.min((1.9 * Math.tan((Math.PI * this.camera.fov) / 360)) / this.camera.zoom, 7);
    const len = (along * factor * this.gizmo.size) / 4;
    const dir = new Vector3(...({ x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] } as const)[axis]).applyQuaternion(this.pivot.quaternion);
    const centre = this.toScreen([c.x, c.y, c.z]);
    const handle = this.toScreen([c.x + dir.x * len, c.y + dir.y * len, c.z + dir.z * len]);
    return centre && handle ? { centre, handle } : null;
  }

  /** Screen position of a part's centre (tests click parts with it). */
  partScreen(index: number): { x: number; y: number } | null {
    const p = this.parts[index];
    return p ? this.toScreen(p.pos) : null;
  }

  snapTo(cam: Camera): void {
    const pose = poseFromCamera(cam);
    this.camera.position.set(...pose.position);
    this.camera.fov = pose.fovDeg;
    this.camera.up.set(0, 0, 1);
    this.orbit.target.set(...pose.target);
    this.camera.lookAt(this.orbit.target);
    this.camera.updateProjectionMatrix();
    this.orbit.update();
    this.requestRender();
    this.events.cameraChanged();
  }

  /** The orbit target clamped into the bounds cube (where new parts appear). */
  viewCentre(): Vec3 {
    const t = this.orbit.target;
    const clamp = (v: number): number => Math.max(-0.8, Math.min(0.8, v));
    return [clamp(t.x), clamp(t.y), clamp(t.z)];
  }

  currentCamera(width: number, height: number): Camera {
    this.camera.updateMatrixWorld();
    return cameraFromPose(this.camera.matrixWorld.elements, this.camera.fov, width, height);
  }

  resize(): void {
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(w, h, true);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  requestRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderer.render(this.scene, this.camera);
    });
  }

  dispose(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.gizmo.detach();
    this.gizmo.dispose();
    this.orbit.dispose();
    for (const m of this.meshes) disposeMesh(m);
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
