// How the exact checker reads a player's answer (docs/TASKS.md, "Answer checking"): hedges
// stripped ("I think yes"), choices by letter or text ("D) cone", "in the bin" for "inside the
// bin"), yes/no, one number in digits or words (a range such as "2 or 3" reads as nothing), and
// colours by family ("light green" is green; "green ball" answers a colour question).
// Inputs: a raw answer string (and the choices). Output: what was read, or null when nothing
// (or more than one thing) was read. Invariant: pure and deterministic; a reading never guesses
// between two candidates: an answer naming two is read as null.

/** Lower case, punctuation to spaces, single spaces. */
export function normalize(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Leading phrases that hedge without answering, removed before reading (longest first). */
const HEDGES = [
  'i am not sure but', 'i m not sure but', 'i\'m not sure but', 'not sure but', 'i would say', 'i\'d say', 'it looks like', 'it seems like', 'it seems',
  'it appears', 'it looks', 'my answer is', 'the answer is', 'i think', 'i believe', 'i guess', 'most likely', 'probably', 'perhaps', 'maybe',
  'likely', 'definitely', 'answer', 'i see',
];

/** The answer without leading hedges and a trailing full stop. */
export function stripHedges(s: string): string {
  let n = normalize(s);
  for (let changed = true; changed;) {
    changed = false;
    for (const h of HEDGES) {
      if (n === h || n.startsWith(`${h} `)) {
        n = n.slice(h.length).trim();
        changed = true;
      }
    }
  }
  return n;
}

const YES = new Set(['yes', 'y', 'yeah', 'yep', 'true', 'correct', 'indeed']);
const NO = new Set(['no', 'n', 'nope', 'false']);

export function parseYesNo(s: string): 'yes' | 'no' | null {
  const words = stripHedges(s).split(' ').filter(Boolean);
  if (!words.length) return null;
  const first = YES.has(words[0]) ? 'yes' : NO.has(words[0]) ? 'no' : null;
  if (!first) return null;
  // "yes or no", "yes and no": both polarities named, nothing read.
  const other = first === 'yes' ? NO : YES;
  if (words.slice(1).some((w) => other.has(w) && w.length > 1)) return null;
  return first;
}

export const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

/** The one number a player wrote (digits, or a word up to twenty), or null (none, or a range). */
export function parseNumber(s: string): number | null {
  const raw = s.toLowerCase();
  // "2-3", "2–3", "2/3" are ranges or fractions, never one count.
  if (/\d\s*[-–/]\s*\d/.test(raw)) return null;
  const words = stripHedges(s).split(' ').filter(Boolean);
  const found: number[] = [];
  for (const w of words) {
    if (/^\d+$/.test(w)) found.push(Number(w));
    else if (NUMBER_WORDS.includes(w)) found.push(NUMBER_WORDS.indexOf(w));
  }
  if (found.length !== 1) return null;
  return found[0];
}

/** Words a choice or a free-text answer may be written with; each maps to the canonical word. */
const WORD_SYNONYMS: Readonly<Record<string, string>> = {
  in: 'inside', within: 'inside', into: 'inside', beneath: 'under', below: 'under', underneath: 'under', atop: 'on',
  ball: 'sphere', orb: 'sphere', spherical: 'sphere', round: 'sphere', box: 'cube', block: 'cube', cubic: 'cube', cuboid: 'cube',
  cylindrical: 'cylinder', tube: 'cylinder', conical: 'cone', cupboard: 'cabinet', bookshelf: 'shelf', shelves: 'shelf', desk: 'table', basket: 'bin',
  grey: 'gray',
};
/** Words that carry no answer ("it is the red one" reads as "red"). */
const FILLER = new Set(['a', 'an', 'the', 'it', 'is', 'its', 'it\'s', 'colour', 'color', 'object', 'thing', 'one', 'there', 'are', 'this', 'that', 'of', 'top', 'placed', 'located', 'sitting', 'standing', 'lying', 'sits', 'stands', 'lies']);

/** Content words, singular, each mapped to its canonical synonym. */
export function contentWords(s: string): string[] {
  return stripHedges(s).split(' ').filter((w) => w && !FILLER.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .map((w) => WORD_SYNONYMS[w] ?? w);
}

function containsRun(hay: readonly string[], needle: readonly string[]): boolean {
  if (!needle.length) return false;
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((w, k) => hay[i + k] === w)) return true;
  return false;
}

/** The choice a text names: equal content words, else the one choice whose words it contains. */
function choiceByText(s: string, choices: readonly string[]): string | null {
  const g = contentWords(s);
  if (!g.length) return null;
  const key = g.join(' ');
  const equal = choices.filter((c) => contentWords(c).join(' ') === key);
  if (equal.length === 1) return equal[0];
  const within = choices.filter((c) => containsRun(g, contentWords(c)));
  // A choice whose words are part of a longer matching choice gives way to it.
  const longest = within.filter((c) => !within.some((d) => d !== c && containsRun(contentWords(d), contentWords(c))));
  return longest.length === 1 ? longest[0] : null;
}

/** A choice by its text, its letter (a, b, c ... as listed) or both ("D) cone"); null when they disagree. */
export function parseChoice(s: string, choices: readonly string[]): string | null {
  const t = s.trim().toLowerCase();
  const lettered = t.match(/^(?:option\s+)?\(([a-z])\)\s*(.*)$/) ?? t.match(/^(?:option\s+)?([a-z])\s*[).:]\s*(.*)$/) ?? t.match(/^(?:option\s+)?([a-z])$/);
  if (lettered) {
    const i = lettered[1].charCodeAt(0) - 97;
    const rest = lettered[2] ?? '';
    if (i < choices.length) {
      if (!normalize(rest)) return choices[i];
      const byText = choiceByText(rest, choices);
      return byText === null || byText === choices[i] ? choices[i] : null;
    }
  }
  return choiceByText(s, choices);
}

/** Colour words by family; light/dark/pale/bright shades stay in their family. */
export const COLOUR_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  red: ['red', 'scarlet', 'crimson', 'maroon', 'burgundy', 'reddish', 'cherry'],
  green: ['green', 'lime', 'olive', 'emerald', 'greenish', 'mint', 'forest'],
  blue: ['blue', 'navy', 'azure', 'bluish', 'blueish', 'cobalt', 'sky', 'royal'],
  yellow: ['yellow', 'gold', 'golden', 'yellowish', 'lemon', 'mustard'],
  orange: ['orange', 'amber', 'tangerine', 'orangish', 'orangey'],
  purple: ['purple', 'violet', 'magenta', 'lilac', 'lavender', 'purplish', 'plum'],
  pink: ['pink', 'rose', 'pinkish', 'salmon', 'fuchsia'],
  black: ['black', 'jet', 'ebony'],
  white: ['white', 'ivory', 'cream'],
  gray: ['gray', 'silver', 'grayish', 'charcoal'],
  brown: ['brown', 'tan', 'beige', 'brownish', 'chocolate', 'wooden'],
};
const SHADES = new Set(['light', 'dark', 'pale', 'bright', 'deep', 'pastel', 'vivid', 'shiny', 'matte', 'dull']);
const FAMILY_OF = new Map<string, string>(Object.entries(COLOUR_FAMILIES).flatMap(([f, ws]) => ws.map((w) => [w, f] as [string, string])));

export function colourFamily(word: string): string | null {
  return FAMILY_OF.get(normalize(word).replace(/^grey$/, 'gray')) ?? null;
}

/**
 * The one colour family an answer names ("light green", "a green ball", "greenish"), the family of
 * a lone shade word that is itself an accepted answer ("dark" for black), else null (none or two).
 */
export function parseColour(s: string, accepted: ReadonlyMap<string, string> = new Map()): string | null {
  const words = contentWords(s);
  const fams = new Set<string>();
  for (const w of words) {
    const f = FAMILY_OF.get(w) ?? accepted.get(w);
    if (f) fams.add(f);
  }
  if (fams.size === 0 && words.length === 1 && SHADES.has(words[0])) return accepted.get(words[0]) ?? null;
  return fams.size === 1 ? [...fams][0] : null;
}

/** Words that turn an answer into a list or a denial: a free-text answer holding one is read as nothing. */
const NOT_ONE = new Set(['or', 'and', 'either', 'not', 'no', 'nothing', 'none']);
const SIZE_WORDS = new Set(['small', 'big', 'large', 'little', 'tiny', 'huge', 'short', 'tall']);

/** The accepted phrase a free-text answer names, or null. */
export function parseText(s: string, accepted: readonly string[]): string | null {
  const g = contentWords(s);
  if (!g.length || g.some((w) => NOT_ONE.has(w))) return null;
  const bare = g.filter((w) => !FAMILY_OF.has(w) && !SIZE_WORDS.has(w) && !SHADES.has(w));
  const hits = accepted.filter((a) => {
    const w = contentWords(a);
    return w.join(' ') === g.join(' ') || w.join(' ') === bare.join(' ') || containsRun(g, w);
  });
  return hits.length ? hits[0] : null;
}
