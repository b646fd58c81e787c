// Questions with exact answers generated from a room's scene graph: attributes (colour, shape,
// size), counting, spatial relations (on top of, where), object search (inside, behind,
// under) and the words printed on signs, each naming the nodes a view must show to answer it.
// Open by default, as E3VS asks (docs/TASKS.md, "E3VS's quantities and the lab's"): every answer is
// free text the judge scores; `{ closed: true }` gives the closed forms (shape and place from a
// list, yes/no, a count) that the exact checker scores. Inputs: a RoomSpec and the form. Output:
// Question[] in a fixed order (the same ids and order in either form). Invariant: every question
// describes its objects uniquely within the room, and its answer is read off the spec, never guessed.
import { localHalfExtents } from '../../authoring/geometry';
import type { Part } from '../../authoring/primitives';
import type { Answer } from './answers';
import { COLOR_SYNONYMS, findNode, nodeAabb, type RoomNode, type RoomSpec } from './room';

export const QUESTION_FAMILIES = ['color', 'shape', 'count', 'size', 'stack', 'search', 'where', 'sign'] as const;
export type QuestionFamily = (typeof QUESTION_FAMILIES)[number];

export interface Question {
  id: string;
  family: QuestionFamily;
  text: string;
  answer: Answer;
  /** Nodes a view must show (visibility rule) to answer the question. */
  needs: string[];
}

export const CATEGORY_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  ball: ['sphere', 'orb'], cube: ['block', 'box'], mug: ['cup', 'cylinder'], cone: ['pyramid cone', 'traffic cone'],
  plant: ['potted plant', 'houseplant', 'pot plant'],
};
/** What a target may be: the answer space of the questions that ask for an object. */
export const TARGET_CATEGORIES = ['ball', 'cube', 'mug', 'cone', 'plant'] as const;
export const SHAPES = ['sphere', 'cube', 'cylinder', 'cone'] as const;
export const WHERE_CHOICES = ['on the table', 'on the shelf', 'inside the bin', 'under the table', 'behind the cabinet', 'on top of another object'];
/** Words the open shape question also accepts (the judge reads them; the exact checker as well). */
export const SHAPE_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  sphere: ['ball', 'spherical', 'round'], cube: ['box', 'block', 'cubic'], cylinder: ['cylindrical', 'tube'], cone: ['conical'],
};
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

export interface QuestionForm {
  /** The closed forms (choices, yes/no, a number) the exact checker scores; default false: open text. */
  closed?: boolean;
}

/** Where a node is, as words: "on the table", "on top of the red cube". */
export function placePhrase(room: RoomSpec, n: RoomNode): string {
  if (!n.place) return 'in the room';
  const of = findNode(room, n.place.of);
  if (of.role === 'target') return `on top of the ${of.color} ${of.category}`;
  return n.place.relation === 'on' ? `on the ${of.category}` : `${n.place.relation} the ${of.category}`;
}

function volume(n: RoomNode): number {
  return n.parts.reduce((v, p) => {
    const e = localHalfExtents(p as Part);
    const k = p.kind === 'box' ? 8 : p.kind === 'sphere' ? (4 * Math.PI) / 3 : p.kind === 'cylinder' ? 2 * Math.PI : (2 * Math.PI) / 3;
    return v + k * e[0] * e[1] * e[2];
  }, 0);
}

function textAnswer(correct: string, synonyms: readonly string[]): Answer {
  return { type: 'text', correct, synonyms: [...synonyms] };
}

/**
 * How a question names a sign by what the room shows (never a compass word, which nothing in a
 * room lets a player resolve): the room's only sign is "the sign"; of two, the one on the wall
 * the floor lamp stands by, or the one on the wall facing the lamp.
 */
export function signPlace(room: RoomSpec, sign: RoomNode): string {
  const signs = room.nodes.filter((n) => n.role === 'sign' && n.label);
  const lamp = room.nodes.find((n) => n.category === 'lamp');
  if (signs.length < 2 || !lamp) return 'the sign';
  const lampBox = nodeAabb(lamp), signBox = nodeAabb(sign);
  const lampX = (lampBox.min[0] + lampBox.max[0]) / 2, signX = (signBox.min[0] + signBox.max[0]) / 2;
  // Signs hang on the two walls across X; the lamp stands by one of them.
  const lampWallX = lampX < room.size[0] / 2 ? 0 : room.size[0];
  return Math.abs(signX - lampWallX) < room.size[0] / 2 ? 'the sign on the wall with the floor lamp' : 'the sign on the wall facing the floor lamp';
}

export function generateQuestions(room: RoomSpec, form: QuestionForm = {}): Question[] {
  const closed = form.closed === true;
  const targets = room.nodes.filter((n) => n.role === 'target');
  const out: Question[] = [];
  const add = (family: QuestionFamily, text: string, answer: Answer, needs: string[]) =>
    out.push({ id: `${room.name}/${family}-${out.filter((q) => q.family === family).length + 1}`, family, text, answer, needs });
  const unique = <T>(key: (n: RoomNode) => T, n: RoomNode) => targets.filter((m) => key(m) === key(n)).length === 1;
  const byColorCat = (n: RoomNode) => `${n.color} ${n.category}`;
  for (const t of targets) {
    const place = placePhrase(room, t);
    // A captured object has the colours it was captured with and no primitive shape to ask about.
    if (!t.capture && unique((m) => `${m.category}|${placePhrase(room, m)}`, t)) {
      add('color', `What colour is the ${t.category} ${place}?`, textAnswer(t.color, COLOR_SYNONYMS[t.color] ?? []), [t.id]);
    }
    if (t.shape && unique((m) => `${m.color}|${placePhrase(room, m)}`, t)) {
      const shape = t.shape;
      add('shape', `What shape is the ${t.color} object ${place}?`, closed ? { type: 'choice', choices: [...SHAPES], correct: shape } : textAnswer(shape, SHAPE_SYNONYMS[shape] ?? []), [t.id]);
    }
    if (unique(byColorCat, t)) {
      const of = t.place ? findNode(room, t.place.of) : null;
      const where = of?.role === 'target' ? 'on top of another object' : place;
      if (WHERE_CHOICES.includes(where)) {
        // Open: where it is in the room's own words (a stacked target names what it stands on).
        add('where', `Where is the ${t.color} ${t.category}?`, closed ? { type: 'choice', choices: WHERE_CHOICES, correct: where } : textAnswer(place, []), [t.id]);
      }
    }
  }
  // Counting: objects standing directly on a piece of furniture.
  for (const support of ['table', 'shelf']) {
    const on = targets.filter((t) => t.place?.relation === 'on' && t.place.of === support);
    if (on.length === 0) continue;
    const answer: Answer = closed ? { type: 'number', correct: on.length } : textAnswer(String(on.length), NUMBER_WORDS[on.length] ? [NUMBER_WORDS[on.length]] : []);
    add('count', `How many objects stand directly on the ${support}?`, answer, on.map((t) => t.id));
  }
  // Stacks: what is on top of a target.
  for (const top of targets.filter((t) => t.place && findNode(room, t.place.of).role === 'target')) {
    const base = findNode(room, top.place!.of);
    add('stack', `What is on top of the ${base.color} ${base.category}?`, textAnswer(top.category, CATEGORY_SYNONYMS[top.category] ?? []), [top.id, base.id]);
  }
  // Object search: the only object inside, behind or under a piece of furniture.
  for (const rel of ['inside', 'behind', 'under'] as const) {
    const hits = targets.filter((t) => t.place?.relation === rel);
    if (hits.length !== 1) continue;
    const t = hits[0];
    const of = findNode(room, t.place!.of).category;
    add('search', `What object is ${rel} the ${of}?`, textAnswer(t.category, CATEGORY_SYNONYMS[t.category] ?? []), [t.id]);
    if (!t.capture) add('color', `What colour is the object ${rel} the ${of}?`, textAnswer(t.color, COLOR_SYNONYMS[t.color] ?? []), [t.id]);
  }
  // Signs: the word printed on each wall's sign, read only from close enough (read_box).
  for (const sign of room.nodes.filter((n) => n.role === 'sign' && n.label)) {
    add('sign', `What word is printed on ${signPlace(room, sign)}?`, textAnswer(sign.label!.text.toLowerCase(), []), [sign.id]);
  }
  // Size: pairs on the same support, only when the volumes differ clearly.
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const a = targets[i], b = targets[j];
      if (a.place?.of !== b.place?.of || !unique(byColorCat, a) || !unique(byColorCat, b)) continue;
      const va = volume(a), vb = volume(b);
      if (Math.max(va, vb) / Math.min(va, vb) < 1.5) continue;
      if (closed) add('size', `Is the ${a.color} ${a.category} bigger than the ${b.color} ${b.category}?`, { type: 'yesno', correct: va > vb ? 'yes' : 'no' }, [a.id, b.id]);
      else {
        const big = va > vb ? a : b;
        add('size', `Which is bigger, the ${a.color} ${a.category} or the ${b.color} ${b.category}?`, textAnswer(`the ${big.color} ${big.category}`, [`${big.color} ${big.category}`]), [a.id, b.id]);
      }
    }
  }
  return out;
}
