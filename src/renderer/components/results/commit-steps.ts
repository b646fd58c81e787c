// Which calls of a person's episode were sent inside one commit (issue 42, item 7): the process
// log's `commit` events (d.first: the commit's first call's step, d.calls: how many) name them.
// The per-commit score curve leaves out every call of a commit but its last, so it shows only
// states the person saw; the export keeps the call-level curve (nothing here changes the data).
// Input: the process events. Output: the step numbers inside a commit (not its last call).
import type { ProcessEvent } from '../../../shared/env/process-log';

export function insideCommits(events: readonly ProcessEvent[] | undefined): Set<number> {
  const inside = new Set<number>();
  for (const e of events ?? []) {
    if (e.e !== 'commit') continue;
    const first = e.d?.first;
    const calls = e.d?.calls;
    if (typeof first !== 'number' || typeof calls !== 'number') continue;
    for (let k = first; k < first + calls - 1; k++) inside.add(k);
  }
  return inside;
}
