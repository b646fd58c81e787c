// Reading a model's relation answer robustly: `left`, `Left.`, `{"relation": "left"}`, `Answer:
// right`, "The rock is to the left of the tree" all mean one class; an answer naming none, or
// several without saying which is final, is unparseable, and is kept as given (the trial counts
// as wrong and the count of unparseable answers is reported). Input: the `answer` tool's raw
// arguments. Output: normalised arguments for AnswerArgsSchema, or the raw text that could not
// be read. Invariant: a well-formed call (relation one of the four classes) is returned as it
// came; nothing is guessed from a text that names two classes.
import { RELATION_CLASSES, type RelationClass } from './labels';

const WORD = new RegExp(`\\b(${RELATION_CLASSES.join('|')})\\b`, 'g');
const FINAL = new RegExp(`\\b(?:final answer|answer|relation)\\s*(?:is|:|=)?\\s*["'*]*\\s*(${RELATION_CLASSES.join('|')})\\b`, 'g');

/** The class a free text names, or null when it names none or several (without a final one). */
export function parseRelationText(text: string): RelationClass | null {
  const t = text.toLowerCase().replace(/[_-]+/g, ' ');
  const finals = [...t.matchAll(FINAL)].map((m) => m[1] as RelationClass);
  if (finals.length > 0) return finals[finals.length - 1];
  const named = new Set([...t.matchAll(WORD)].map((m) => m[1] as RelationClass));
  return named.size === 1 ? [...named][0] : null;
}

export type NormalisedAnswer =
  | { kind: 'args'; args: unknown }
  | { kind: 'unparsed'; raw: string; rest: Record<string, unknown> };

const isClass = (v: unknown): v is RelationClass => typeof v === 'string' && (RELATION_CLASSES as readonly string[]).includes(v);

/**
 * The `answer` call's arguments with a free-text relation read as a class. A string instead
 * of an object (a model's non-JSON arguments) is read as the relation's text.
 */
export function normaliseAnswerArgs(args: unknown): NormalisedAnswer {
  if (typeof args === 'string') {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(args);
    } catch {
      parsed = null;
    }
    if (parsed && typeof parsed === 'object') return normaliseAnswerArgs(parsed);
    const c = parseRelationText(args);
    return c ? { kind: 'args', args: { relation: c } } : { kind: 'unparsed', raw: args, rest: {} };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { kind: 'args', args };
  const { relation, ...rest } = args as Record<string, unknown>;
  if (relation === undefined || isClass(relation) || typeof relation !== 'string') return { kind: 'args', args };
  const c = parseRelationText(relation);
  return c ? { kind: 'args', args: { ...rest, relation: c } } : { kind: 'unparsed', raw: relation, rest };
}
