// The kinds' parts in the study tier (docs/ARCHITECTURE.md, "The composition root and task kinds"):
// each kind's Inspect scorer (src/main/kinds/scorer.ts) and its part of a study's export archive
// and paper (./kind-part.ts), indexed from its main manifest (src/main/kinds/manifests.ts
// registerMainManifest, the only caller of registerStudyKind). The study machinery (src/main/study/{export,paper}.ts) and the
// Inspect export (src/main/eval/scorers.ts) read only this index; it imports no kind.
// Input: a kind's study entry. Output: the scorers and study parts of every kind.
// Invariant: every kind of the main registry (src/main/kinds/registry.ts) has a scorer here: a kind without one
// is refused at registration, never given an empty list when an export asks for its scores; a kind
// without a study part adds no tables of its own (the documented default: its episodes are in the
// shared tables).
import type { KindScorer } from '../kinds/scorer';
import type { KindStudyPart } from './kind-part';

/** What a kind supplies to studies and the Inspect export. */
export interface KindStudyEntry {
  readonly family: string;
  /** Its Inspect scorer (required: an export of its runs must say how they score). */
  readonly scorer: KindScorer;
  /** Its tables of the export archive and the paper; default none. */
  readonly part?: KindStudyPart;
}

const STUDY_KINDS: KindStudyEntry[] = [];

/** Adds a kind's study entry, after checking it names its family throughout; one line when it does not fit. */
export function registerStudyKind(entry: KindStudyEntry): void {
  const { family, scorer, part } = entry;
  if (STUDY_KINDS.some((k) => k.family === family)) throw new Error(`kind '${family}': its study entry is already registered`);
  if (!scorer || typeof scorer.score !== 'function') throw new Error(`kind '${family}' supplies no Inspect scorer (src/main/kinds/scorer.ts): every kind needs one`);
  if (scorer.family !== family) throw new Error(`kind '${family}': its scorer '${scorer.name}' scores family '${scorer.family}'`);
  const named = STUDY_KINDS.find((k) => k.scorer.name === scorer.name);
  if (named) throw new Error(`kind '${family}': a scorer named '${scorer.name}' is already registered (kind '${named.family}')`);
  if (part && part.family !== family) throw new Error(`kind '${family}': its study part is of family '${part.family}'`);
  STUDY_KINDS.push(entry);
}

/** Every kind's study entry, in registration order. */
export function studyKinds(): readonly KindStudyEntry[] {
  return STUDY_KINDS;
}

/** The study parts of the kinds that have one. */
export function studyParts(): readonly KindStudyPart[] {
  return STUDY_KINDS.flatMap((k) => (k.part ? [k.part] : []));
}
