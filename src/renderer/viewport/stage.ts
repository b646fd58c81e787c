// The three.js stage both 3D viewports (play and author) stand on: a Z-up scene with the bounds
// cube and axis marker, an orbit camera that snaps to explicit cameras, a TransformControls gizmo
// on a pivot, and on-demand rendering. Subclasses add their objects, picking and drag handling.
// Invariant: rendering happens at most once per animation frame, only when something changed.
import { Object3D, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { orbitCamera } from '../../shared/camera/orbit';
import type { Camera } from '../../shared/raster/types';
import { cameraFromPose, poseFromCamera } from './camera';
import { axisMarker, boundsCube } from './outlines';

const HOME_VIEW = { azimuth: 35, elevation: 25, distance: 6, fov: 45 };

export interface StageOptions {
  testId: string; // data-testid of the canvas
  /** Half-side of the box the view centre is clamped into (where new things appear). */
  centreLimit: number;
  onCamera: () => void;
}

export abstract class OrbitStage {
  readonly renderer: WebGLRenderer;
  readonly camera = new PerspectiveCamera(40, 1, 0.01, 100);
  protected readonly scene = new Scene();
  protected readonly orbit: OrbitControls;
  protected readonly gizmo: TransformControls;
  protected readonly pivot = new Object3D();
  private frame = 0;

  protected constructor(
    protected readonly host: HTMLElement,
    private readonly options: StageOptions,
  ) {
    this.renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    host.appendChild(this.renderer.domElement);
    this.renderer.domElement.dataset.testid = options.testId;
    this.camera.up.set(0, 0, 1);
    this.scene.add(boundsCube(), axisMarker(), this.pivot);
    this.orbit = new OrbitControls(this.camera, this.renderer.domElement);
    this.orbit.addEventListener('change', () => {
      this.requestRender();
      options.onCamera();
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
    this.resize();
    this.home();
  }

  protected abstract beginDrag(): void;
  protected abstract previewDrag(): void;
  protected abstract endDrag(): void;

  /** The default three-quarter view: the whole bounds cube in sight, Z up. */
  home(): void {
    this.snapTo(orbitCamera({ ...HOME_VIEW, width: 256, height: 256 }));
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
    this.options.onCamera();
  }

  /** The orbit target (what the camera turns about). */
  orbitTarget(): [number, number, number] {
    const t = this.orbit.target;
    return [t.x, t.y, t.z];
  }

  /** Puts the eye at `eye` looking at `target` (Z up); the orbit then turns about `target`. */
  setView(eye: readonly number[], target: readonly number[]): void {
    this.camera.position.set(eye[0], eye[1], eye[2]);
    this.camera.up.set(0, 0, 1);
    this.orbit.target.set(target[0], target[1], target[2]);
    this.camera.lookAt(this.orbit.target);
    this.camera.updateProjectionMatrix();
    this.orbit.update();
    this.requestRender();
    this.options.onCamera();
  }

  /** Orbiting on or off (the fly camera and drag tools take the mouse). */
  setOrbitEnabled(on: boolean): void {
    this.orbit.enabled = on;
  }

  /** Adds or removes a helper object (a selection sphere) drawn with the scene. */
  showHelper(o: Object3D, on: boolean): void {
    if (on) this.scene.add(o);
    else this.scene.remove(o);
    this.requestRender();
  }

  /** The orbit target clamped into the centre box (where add tools put new things). */
  viewCentre(): [number, number, number] {
    const t = this.orbit.target;
    const limit = this.options.centreLimit;
    const clamp = (v: number): number => Math.max(-limit, Math.min(limit, v));
    return [clamp(t.x), clamp(t.y), clamp(t.z)];
  }

  /** The current view as an explicit camera of the given size (live previews use it). */
  currentCamera(width: number, height: number): Camera {
    this.camera.updateMatrixWorld();
    return cameraFromPose(this.camera.matrixWorld.elements, this.camera.fov, width, height);
  }

  /** Client-pixel position of a world point (null behind the camera). */
  toScreen(p: readonly number[], rect = this.renderer.domElement.getBoundingClientRect()): { x: number; y: number } | null {
    const v = new Vector3(p[0], p[1], p[2]).project(this.camera);
    if (v.z > 1) return null;
    return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
  }

  /**
   * Screen position of the gizmo pivot and of a point on its translate handle along an axis
   * (`along` in gizmo units: the arrow tip is at 0.5). Tests drive real mouse drags with it; the
   * length follows TransformControls' own screen-constant sizing.
   */
  gizmoScreen(axis: 'x' | 'y' | 'z', along = 0.45): { centre: { x: number; y: number }; handle: { x: number; y: number } } | null {
    if (!this.gizmo.object) return null;
    const c = this.pivot.position;
    const factor = c.distanceTo(this.camera.position) * Math.min((1.9 * Math.tan((Math.PI * this.camera.fov) / 360)) / this.camera.zoom, 7);
    const len = (along * factor * this.gizmo.size) / 4;
    const dir = new Vector3(...({ x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] } as const)[axis]);
    if (this.gizmo.space === 'local') dir.applyQuaternion(this.pivot.quaternion);
    const centre = this.toScreen([c.x, c.y, c.z]);
    const handle = this.toScreen([c.x + dir.x * len, c.y + dir.y * len, c.z + dir.z * len]);
    return centre && handle ? { centre, handle } : null;
  }

  /** Screen position of the gizmo pivot plus `offset` in gizmo units (the rotate rings have radius 0.5), along world axes. */
  gizmoPoint(offset: readonly number[]): { x: number; y: number } | null {
    if (!this.gizmo.object) return null;
    const c = this.pivot.position;
    const factor = c.distanceTo(this.camera.position) * Math.min((1.9 * Math.tan((Math.PI * this.camera.fov) / 360)) / this.camera.zoom, 7);
    const k = (factor * this.gizmo.size) / 4;
    return this.toScreen([c.x + offset[0] * k, c.y + offset[1] * k, c.z + offset[2] * k]);
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

  /** Releases the stage's GPU resources and controls; subclasses dispose their objects first. */
  protected disposeStage(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.gizmo.detach();
    this.gizmo.dispose();
    this.orbit.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
