// three.js objects of the viewport's static furniture and of the person's Gaussians.
// Furniture: the grey wireframe bounds cube [-1, 1]^3 and an axis marker (X red, Y green, Z blue).
// Gaussians: three orthogonal ellipses each (a wireframe ellipsoid) at the half-alpha contour
// (where the Gaussian's alpha falls to half its opacity: sqrt(2 ln 2) = 1.18 sigma, the edge a
// render shows), in the Gaussian's colour lifted for contrast when it is too dark for the dark
// viewport, plus an invisible ellipsoid of the same size for picking. Object names carry the id.
// Crowded scenes read better with less per Gaussian: the outline style draws every Gaussian with
// three rings ('rings'), one ring in the plane of its two longest axes ('ring'), or only a dot
// ('points'); the selection always gets all three rings. 'solid' (the default, and the part view's)
// draws each Gaussian as a lit ellipsoid of its half-alpha size in its own colour, opaque at
// opacity 1, so a fill reads as the opaque body its render shows (rings of its Gaussians read as a
// see-through cage) and a part's shape reads without a render (issue 42); the selection's orange
// rings are drawn on top of the bodies.
// Invariant: geometry is shared (one circle, one sphere); materials are per Gaussian and disposed
// with its group, so rebuilding the scene leaks nothing.
import {
  ArrowHelper, BufferGeometry, CanvasTexture, Color, Float32BufferAttribute, Group, LineBasicMaterial, LineLoop, LineSegments, Mesh,
  MeshBasicMaterial, MeshLambertMaterial, Points, PointsMaterial, Quaternion, SphereGeometry, Sprite, SpriteMaterial, Vector3, type Object3D,
} from 'three';
import type { GaussianRecord } from '../../shared/scene/gaussian';

/**
 * Outline radius in standard deviations: alpha = opacity * exp(-d^2 / 2) is half the opacity at
 * d = sqrt(2 ln 2), so the outline sits where a render's blob visibly ends (not at 2 sigma).
 */
export const OUTLINE_SIGMAS = Math.sqrt(2 * Math.LN2);
/** Below this luminance an outline colour is lifted towards white (the viewport stays dark). */
export const MIN_OUTLINE_LUMINANCE = 0.35;

const luminance = (c: readonly number[]): number => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];

/** The colour an outline is drawn in: the Gaussian's own, mixed towards white just enough to read on the dark viewport. */
export function outlineColor(c: readonly [number, number, number]): [number, number, number] {
  const l = luminance(c);
  if (l >= MIN_OUTLINE_LUMINANCE) return [c[0], c[1], c[2]];
  const k = (MIN_OUTLINE_LUMINANCE - l) / (1 - l);
  return [c[0] + (1 - c[0]) * k, c[1] + (1 - c[1]) * k, c[2] + (1 - c[2]) * k];
}
/** Picking never uses an ellipsoid thinner than this (world units), so needles stay clickable. */
const PICK_MIN_RADIUS = 0.03;

function circleGeometry(segments: number, plane: 'xy' | 'yz' | 'xz'): BufferGeometry {
  const pts: number[] = [];
  for (let i = 0; i < segments; i++) {
    const a = (i / segments) * Math.PI * 2;
    const u = Math.cos(a);
    const v = Math.sin(a);
    if (plane === 'xy') pts.push(u, v, 0);
    else if (plane === 'yz') pts.push(0, u, v);
    else pts.push(u, 0, v);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(pts, 3));
  return g;
}

const CIRCLES = [circleGeometry(48, 'xy'), circleGeometry(48, 'yz'), circleGeometry(48, 'xz')];
const PICK_SPHERE = new SphereGeometry(1, 12, 8);
const DOT = new BufferGeometry().setAttribute('position', new Float32BufferAttribute([0, 0, 0], 3));

export type OutlineStyle = 'rings' | 'ring' | 'points' | 'solid';
const SOLID_SPHERE = new SphereGeometry(1, 20, 14);

/** The one ring of style 'ring': the circle in the plane of the two longest axes (CIRCLES: xy, yz, xz). */
function mainCircle(scale: readonly number[]): BufferGeometry {
  const least = scale.indexOf(Math.min(...scale));
  return CIRCLES[least === 2 ? 0 : least === 0 ? 1 : 2];
}
const PICK_MATERIAL = new MeshBasicMaterial({ visible: false });

export function boundsCube(): LineSegments {
  const c = [-1, 1];
  const pts: number[] = [];
  for (const a of c) for (const b of c) {
    pts.push(-1, a, b, 1, a, b);
    pts.push(a, -1, b, a, 1, b);
    pts.push(a, b, -1, a, b, 1);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(pts, 3));
  return new LineSegments(g, new LineBasicMaterial({ color: 0x8a8f99 }));
}

/** Letter sprite for an axis label (drawn on a small canvas). */
function label(text: string, color: string, at: Vector3): Sprite {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.font = 'bold 44px sans-serif';
    ctx.fillStyle = color;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, 32, 34);
  }
  const sprite = new Sprite(new SpriteMaterial({ map: new CanvasTexture(canvas), depthTest: false }));
  sprite.position.copy(at);
  sprite.scale.set(0.16, 0.16, 0.16);
  return sprite;
}

/** Axis marker at the cube's corner (-1, -1, -1), as on the photos: X red, Y green, Z blue, 0.6 long, labelled. */
export function axisMarker(): Group {
  const corner = new Vector3(-1, -1, -1);
  const marker = new Group();
  const axes: [Vector3, number, string, string][] = [
    [new Vector3(1, 0, 0), 0xe02020, '#ff5050', 'X'],
    [new Vector3(0, 1, 0), 0x20b030, '#40d050', 'Y'],
    [new Vector3(0, 0, 1), 0x3060ff, '#6090ff', 'Z'],
  ];
  for (const [dir, hex, css, name] of axes) {
    marker.add(new ArrowHelper(dir, corner, 0.6, hex, 0.12, 0.06));
    marker.add(label(name, css, corner.clone().addScaledVector(dir, 0.75)));
  }
  return marker;
}

/** The id of a Gaussian's outline or pick object (null for anything else). */
export function gaussianIdOf(obj: Object3D | null): number | null {
  for (let o = obj; o; o = o.parent) if (typeof o.userData.gaussianId === 'number') return o.userData.gaussianId as number;
  return null;
}

/** Outline group of one Gaussian: placed at pos, turned by quat, scaled to the half-alpha contour per axis. */
export function gaussianOutline(r: GaussianRecord, selected: boolean, style: OutlineStyle = 'rings'): Group {
  const group = new Group();
  group.userData.gaussianId = r.id;
  group.name = `gaussian-${r.id}`;
  group.position.set(r.pos[0], r.pos[1], r.pos[2]);
  group.quaternion.copy(new Quaternion(r.quat[1], r.quat[2], r.quat[3], r.quat[0]));
  const shape = new Group();
  shape.scale.set(...(r.scale.map((s) => s * OUTLINE_SIGMAS) as [number, number, number]));
  const color = selected ? new Color(1, 0.62, 0.1) : new Color(...outlineColor(r.color));
  const material = new LineBasicMaterial({ color, transparent: !selected, opacity: selected ? 1 : Math.max(0.35, r.opacity) });
  if (style === 'solid') {
    // Opaque where the render is (opacity 1, as fills are); a fainter Gaussian is drawn as faint.
    const faint = r.opacity < 1;
    shape.add(new Mesh(SOLID_SPHERE, new MeshLambertMaterial({ color: new Color(...r.color), emissive: selected ? new Color(0.35, 0.2, 0) : new Color(0, 0, 0), transparent: faint, opacity: Math.max(0.15, r.opacity), depthWrite: !faint })));
    // The selection's rings are drawn through the bodies in front of it (one inside a fill stays visible).
    if (selected) {
      const onTop = new LineBasicMaterial({ color, depthTest: false, transparent: true });
      for (const c of CIRCLES) {
        const ring = new LineLoop(c, onTop);
        ring.renderOrder = 1;
        shape.add(ring);
      }
    }
  } else if (style === 'points' && !selected) group.add(new Points(DOT, new PointsMaterial({ color, size: 4, sizeAttenuation: false, transparent: true, opacity: material.opacity })));
  else for (const c of style === 'ring' && !selected ? [mainCircle(r.scale)] : CIRCLES) shape.add(new LineLoop(c, material));
  group.add(shape);
  const pick = new Mesh(PICK_SPHERE, PICK_MATERIAL);
  pick.scale.set(...(r.scale.map((s) => Math.max(PICK_MIN_RADIUS, s * OUTLINE_SIGMAS)) as [number, number, number]));
  pick.userData.pick = true;
  group.add(pick);
  return group;
}

export function disposeOutline(group: Group): void {
  group.traverse((o) => {
    if (o instanceof LineLoop || o instanceof Points) (o.material as LineBasicMaterial | PointsMaterial).dispose();
    else if (o instanceof Mesh && o.material instanceof MeshLambertMaterial) o.material.dispose();
  });
}

export function centroidOf(records: readonly GaussianRecord[]): Vector3 {
  const c = new Vector3();
  for (const r of records) c.add(new Vector3(r.pos[0], r.pos[1], r.pos[2]));
  return records.length ? c.divideScalar(records.length) : c;
}
