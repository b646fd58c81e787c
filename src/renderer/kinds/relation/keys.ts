// Keys of a relation trial: the arrows (or F, B, L, R) answer; 1-3 set the optional confidence.
// Input: a KeyboardEvent key. Output: the answer or confidence it means, or null.
import type { RelationClass } from '../../../shared/kinds/relation/labels';

export const ANSWER_KEYS: Readonly<Record<string, RelationClass>> = {
  ArrowUp: 'front', ArrowDown: 'back', ArrowLeft: 'left', ArrowRight: 'right',
  f: 'front', b: 'back', l: 'left', r: 'right',
};

export const KEY_LABEL: Readonly<Record<RelationClass, string>> = { front: '↑ / F', back: '↓ / B', left: '← / L', right: '→ / R' };

export const CONFIDENCE_LEVELS = [
  { value: 1, label: 'guess' },
  { value: 2, label: 'fairly sure' },
  { value: 3, label: 'sure' },
] as const;

export function answerForKey(key: string): RelationClass | null {
  return ANSWER_KEYS[key] ?? ANSWER_KEYS[key.toLowerCase()] ?? null;
}

export function confidenceForKey(key: string): number | null {
  return CONFIDENCE_LEVELS.find((c) => String(c.value) === key)?.value ?? null;
}
