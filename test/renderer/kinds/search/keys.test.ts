// The search play view's key map: one distinct key per motion tool, nothing for other keys.
import { describe, expect, it } from 'vitest';
import { SEARCH_KEYS, toolForKey, toolForKeyEvent } from '../../../../src/renderer/kinds/search/keys';
import { MOTION_ACTIONS } from '../../../../src/shared/kinds/search/pose';

describe('search keys', () => {
  it('maps every motion tool to exactly one key and no key twice', () => {
    expect([...SEARCH_KEYS.map((k) => k.tool)].sort()).toEqual([...MOTION_ACTIONS].sort());
    expect(new Set(SEARCH_KEYS.map((k) => k.key)).size).toBe(SEARCH_KEYS.length);
  });

  it('reads letters in either case and ignores other keys', () => {
    expect(toolForKey('w')).toBe('move_forward');
    expect(toolForKey('W')).toBe('move_forward');
    expect(toolForKey('ArrowUp')).toBe('look_up');
    expect(toolForKey('Enter')).toBeNull();
    expect(toolForKey('x')).toBeNull();
  });

  it('takes a key press on the page, never one typed into a field', () => {
    const press = (key: string, on: HTMLElement) => {
      const e = new KeyboardEvent('keydown', { key, cancelable: true });
      Object.defineProperty(e, 'target', { value: on });
      return { tool: toolForKeyEvent(e), prevented: e.defaultPrevented };
    };
    expect(press('w', document.createElement('div'))).toEqual({ tool: 'move_forward', prevented: true });
    expect(press('w', document.createElement('input'))).toEqual({ tool: null, prevented: false });
    expect(press('ArrowDown', document.createElement('textarea'))).toEqual({ tool: null, prevented: false });
    expect(press('Enter', document.createElement('div'))).toEqual({ tool: null, prevented: false });
  });
});
