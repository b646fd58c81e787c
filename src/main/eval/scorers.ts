// Pluggable scorers of finished episodes (docs/AGENTS.md "Inspect export"): each kind supplies its
// own (src/main/kinds/scorer.ts; the kind's study tier, src/main/kinds/<kind>/study/scorer.ts),
// and the file's own claim (end_record) serves every kind. `splatlab export inspect --scorer NAME`
// picks them; the default is every scorer of the task's kind family except the file's claim.
// The kinds' scorers come from the kinds' study list (src/main/study/kind-studies.ts), which refuses
// a kind without one at registration.
// Input: a task kind and optional scorer names. Output: the scorers to run.
// Invariant: nothing here names a kind; a scorer is matched to a task by its kind's family.
import { kindModule } from '../../shared/kinds/registry';
import type { EpisodeScore, ScoreInput } from '../kinds/scorer';
import { studyKinds } from '../study/kind-studies';

export type { EpisodeScore, ScoreInput };

export interface Scorer {
  readonly name: string;
  readonly description: string;
  /** The kind family it scores (null: every kind). */
  readonly family: string | null;
  score(input: ScoreInput): Promise<EpisodeScore>;
}

const endRecord: Scorer = {
  name: 'end_record',
  description: "the score the log's end record claims (labelled as the file's claim, not regraded)",
  family: null,
  async score({ traj }) {
    const end = traj.end;
    if (!end) throw new Error('the log has no end record (the episode did not finish)');
    return { value: end.score, answer: null, explanation: `the file's claim: score ${end.score} (reason ${end.reason})`, metadata: { claim: true, reason: end.reason, ending: end.ending ?? null } };
  },
};

/** Every scorer: the kinds' own, then the file's claim. */
export function allScorers(): readonly Scorer[] {
  return [...studyKinds().map((k) => k.scorer), endRecord];
}

/** The scorers to run for a task kind: the named ones (each must exist), else every one of its family except the file's claim. */
export function scorersFor(kind: string, names?: readonly string[]): Scorer[] {
  const family = kindModule(kind).family;
  const all = allScorers();
  if (names?.length) {
    const unknown = names.find((n) => !all.some((s) => s.name === n));
    if (unknown) throw new Error(`unknown scorer '${unknown}' (scorers: ${all.map((s) => s.name).join(', ')})`);
    return all.filter((s) => names.includes(s.name) && (s.family === null || s.family === family));
  }
  const own = all.filter((s) => s.family === family);
  // Every kind registers a scorer (src/main/study/kind-studies.ts); an empty list is a broken registry, said here.
  if (!own.length) throw new Error(`kind '${kind}' (family '${family}') has no Inspect scorer registered (src/main/study/kind-studies.ts)`);
  return own;
}
