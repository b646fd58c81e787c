// The attention-check exclusion rule of a study (issue 24 item 6; docs/STUDIES.md "Checks"): a
// participant who failed more than `checks.maxAttentionFailures` attention checks has every
// scored episode excluded, with the reason naming the rule, so the statistics leave them out and
// the participant flow counts them as excluded. Inputs: the StudyStore, a study id. Output: the
// participants the rule excluded. Invariants: applying the rule twice changes nothing more; an
// episode the experimenter excluded for another reason keeps that reason.
import { attentionTally } from '../../shared/study/checks';
import { StudyError, type StudyStore } from './store';
import { setExclusion } from './participant-data';

export async function applyAttentionRule(store: StudyStore, studyId: string, now = new Date()): Promise<{ excluded: string[]; rule: number }> {
  const config = store.config(studyId);
  const max = config.checks.maxAttentionFailures;
  if (max === undefined) throw new StudyError(`study '${studyId}' has no attention-check exclusion rule (checks.maxAttentionFailures)`);
  if (!config.checks.attention.length) throw new StudyError(`study '${studyId}' has no attention checks`);
  const excluded: string[] = [];
  for (const p of store.participants(studyId)) {
    if (p.status === 'deleted') continue;
    const { failed, answered } = attentionTally(p.checks?.attention ?? []);
    if (failed <= max) continue;
    const reason = `failed ${failed} of ${answered} attention check(s) (rule: more than ${max})`;
    for (const e of p.episodes) if (!e.practice && !e.excluded) await setExclusion(store, studyId, p.id, e.taskId, reason, now);
    excluded.push(p.id);
  }
  return { excluded, rule: max };
}
