// The debugger viewport's fly controls: W/A/S/D or the arrows move the free camera, Q/E move it
// down/up (Shift: four times the step), a mouse drag turns the view about the eye. Inputs: where
// the camera is now (a FreeView), the step for the scene, and what to do with the moved view.
// Output: DOM event handlers for the focusable viewport element. Invariant: keys act only when
// the viewport itself has the focus (the handler sits on it) and never on a key typed into an
// input, a select or a text area; a drag is told apart from a click, so clicking still picks a pixel.
import { FLY_KEYS, fly, look, type FreeView } from '../../../shared/debug/free-camera';

/** Degrees the view turns per pixel of drag. */
const DRAG_DEG_PER_PX = 0.3;
/** A press that moves less than this (pixels) is a click. */
const DRAG_SLOP = 4;

export interface FlyTarget {
  base(): FreeView | null;
  step(): number;
  move(v: FreeView): void;
}

export function flyControls(t: FlyTarget) {
  let start: { x: number; y: number } | null = null;
  let last: { x: number; y: number } | null = null;
  let dragging = false;
  let wasDrag = false;

  function onKey(e: KeyboardEvent): void {
    const dir = FLY_KEYS[e.code];
    if (!dir || e.ctrlKey || e.metaKey || e.altKey) return;
    const el = e.target as HTMLElement | null;
    if (el?.closest('input, select, textarea, [contenteditable="true"]')) return;
    const v = t.base();
    if (!v) return;
    e.preventDefault(); // arrows and space would scroll the page
    const d = t.step() * (e.shiftKey ? 4 : 1);
    t.move(fly(v, dir[0] * d, dir[1] * d, dir[2] * d));
  }

  function onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    start = { x: e.clientX, y: e.clientY };
    last = start;
    dragging = false;
    wasDrag = false;
  }

  function onPointerMove(e: PointerEvent): void {
    if (!start || !last || (e.buttons & 1) === 0) return;
    if (!dragging && Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_SLOP) return;
    if (!dragging) (e.currentTarget as HTMLElement | null)?.setPointerCapture?.(e.pointerId);
    dragging = true;
    const v = t.base();
    if (v) t.move(look(v, -(e.clientX - last.x) * DRAG_DEG_PER_PX, -(e.clientY - last.y) * DRAG_DEG_PER_PX));
    last = { x: e.clientX, y: e.clientY };
  }

  function onPointerUp(): void {
    wasDrag = dragging;
    start = null;
    last = null;
    dragging = false;
  }

  /** True once after a press that was a drag (the click that follows it is not a pick). */
  function consumeDrag(): boolean {
    const d = wasDrag;
    wasDrag = false;
    return d;
  }

  return { onKey, onPointerDown, onPointerMove, onPointerUp, consumeDrag };
}
