// Keyboard shortcuts of the episode view (listed in HelpOverlay.vue). Pure dispatch from a
// KeyboardEvent to store actions and view callbacks; keys typed into form fields are ignored.
import type { GizmoMode } from '../../viewport/viewport';
import type { useStagingStore } from '../../stores/staging';

export interface ShortcutTargets {
  staging: ReturnType<typeof useStagingStore>;
  disabled: boolean;
  help(): void;
  mode(m: GizmoMode): void;
  snap(i: number): void;
  home(): void;
  commit(): void;
}

/** Nudge step in world units (Shift: fine). */
export const NUDGE = 0.05;
export const FINE_NUDGE = 0.01;

const NUDGES: Record<string, [number, number, number]> = {
  ArrowLeft: [-1, 0, 0],
  ArrowRight: [1, 0, 0],
  ArrowUp: [0, 1, 0],
  ArrowDown: [0, -1, 0],
  PageUp: [0, 0, 1],
  PageDown: [0, 0, -1],
};

export function handleShortcut(e: KeyboardEvent, t: ShortcutTargets): boolean {
  const el = e.target as HTMLElement | null;
  if (el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA')) return false;
  const ctrl = e.ctrlKey || e.metaKey;
  const key = e.key;
  let handled = true;
  if (key === '?') t.help();
  else if (ctrl && key.toLowerCase() === 'z' && !t.disabled) {
    if (e.shiftKey) t.staging.redo();
    else t.staging.undo();
  } else if (ctrl && key.toLowerCase() === 'y' && !t.disabled) t.staging.redo();
  else if (ctrl && key.toLowerCase() === 'd' && !t.disabled) t.staging.duplicateSelection();
  else if (ctrl && key === 'Enter' && !t.disabled) t.commit();
  else if (ctrl) handled = false;
  else if (key === 'w' || key === 'W') t.mode('translate');
  else if (key === 'e' || key === 'E') t.mode('rotate');
  else if (key === 'r' || key === 'R') t.mode('scale');
  else if (/^[1-8]$/.test(key)) t.snap(Number(key) - 1);
  else if (key === '0') t.home();
  else if (key === 'Escape') t.staging.select([]);
  else if ((key === 'Delete' || key === 'Backspace') && !t.disabled) t.staging.deleteSelection();
  else if (NUDGES[key] && !t.disabled && t.staging.selection.length) {
    const step = e.shiftKey ? FINE_NUDGE : NUDGE;
    t.staging.nudge(NUDGES[key].map((v) => v * step) as [number, number, number]);
  } else handled = false;
  if (handled) e.preventDefault();
  return handled;
}
