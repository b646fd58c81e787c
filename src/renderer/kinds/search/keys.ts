// Keyboard map of the search play view: one key per action, shown on screen (docs/DESIGN.md
// section 9: a person's interface adds speed, never information).
// Input: a KeyboardEvent (or its key). Output: the tool it stands for, or null; keys typed into a
// text field (the answer, the annotation's question) are never actions.
export interface SearchKey {
  key: string;
  label: string;
  tool: string;
}

export const SEARCH_KEYS: readonly SearchKey[] = [
  { key: 'w', label: 'W', tool: 'move_forward' },
  { key: 's', label: 'S', tool: 'move_back' },
  { key: 'a', label: 'A', tool: 'move_left' },
  { key: 'd', label: 'D', tool: 'move_right' },
  { key: 'r', label: 'R', tool: 'move_up' },
  { key: 'f', label: 'F', tool: 'move_down' },
  { key: 'ArrowLeft', label: '←', tool: 'turn_left' },
  { key: 'ArrowRight', label: '→', tool: 'turn_right' },
  { key: 'ArrowUp', label: '↑', tool: 'look_up' },
  { key: 'ArrowDown', label: '↓', tool: 'look_down' },
];

export function toolForKey(key: string): string | null {
  const k = key.length === 1 ? key.toLowerCase() : key;
  return SEARCH_KEYS.find((s) => s.key === k)?.tool ?? null;
}

/** The action of a key press on the page, or null (not a mapped key, or typed into a field). */
export function toolForKeyEvent(e: KeyboardEvent): string | null {
  const target = e.target as HTMLElement | null;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return null;
  const tool = toolForKey(e.key);
  if (tool) e.preventDefault();
  return tool;
}
