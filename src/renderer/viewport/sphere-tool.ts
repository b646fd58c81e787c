// The play view's selection sphere (issue 30 item 5): a wireframe ball drawn in the 3D viewport
// with its own translate gizmo, so a person drags it onto the Gaussians to select. Inputs: the
// stage (camera, canvas, helper slot), the centre and radius from the selection-tools store.
// Output: the new centre after each drag. Invariant: the ball is view furniture only; selecting
// with it is an explicit button (set / add / remove), never a side effect of dragging it.
import { Mesh, MeshBasicMaterial, SphereGeometry } from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { Vec3 } from '../../shared/math/vec3';
import type { OrbitStage } from './stage';

export class SelectionSphere {
  private readonly ball: Mesh;
  private readonly gizmo: TransformControls;

  constructor(private readonly stage: OrbitStage, centre: Vec3, radius: number, onMoved: (c: Vec3) => void) {
    this.ball = new Mesh(new SphereGeometry(1, 24, 16), new MeshBasicMaterial({ color: 0xffb347, wireframe: true, transparent: true, opacity: 0.45 }));
    this.ball.name = 'selection-sphere';
    this.gizmo = new TransformControls(stage.camera, stage.renderer.domElement);
    this.gizmo.setMode('translate');
    this.gizmo.setSize(0.7);
    this.gizmo.addEventListener('change', () => stage.requestRender());
    this.gizmo.addEventListener('dragging-changed', (e) => {
      const dragging = (e as unknown as { value: boolean }).value;
      stage.setOrbitEnabled(!dragging);
      if (!dragging) onMoved([this.ball.position.x, this.ball.position.y, this.ball.position.z]);
    });
    this.set(centre, radius);
    this.gizmo.attach(this.ball);
    stage.showHelper(this.ball, true);
    stage.showHelper(this.gizmo.getHelper(), true);
  }

  set(centre: Vec3, radius: number): void {
    this.ball.position.set(centre[0], centre[1], centre[2]);
    this.ball.scale.setScalar(Math.max(1e-3, radius));
    this.stage.requestRender();
  }

  dispose(): void {
    this.stage.showHelper(this.gizmo.getHelper(), false);
    this.stage.showHelper(this.ball, false);
    this.gizmo.detach();
    this.gizmo.dispose();
    this.ball.geometry.dispose();
    (this.ball.material as MeshBasicMaterial).dispose();
  }
}
