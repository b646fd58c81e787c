// A lab process writing participant records as fast as it can (test/main/study/journal.test.ts):
// it adds participants and updates them in a loop, printing `ack <id> <n>` after each write has
// returned (what a reply would acknowledge), until it is killed.
import { StudyStore } from '../../../src/main/study/store';

const [home, studyId] = process.argv.slice(2);
const store = new StudyStore(home);
for (let n = 1; ; n++) {
  if (n % 10 === 1) {
    const p = await store.addParticipant(studyId);
    process.stdout.write(`ack ${p.id} 0\n`);
  }
  const list = store.participants(studyId);
  const id = list[n % list.length].id;
  const p = await store.updateParticipant(studyId, id, (x) => ({ ...x, taskIndex: x.taskIndex + 1 }));
  process.stdout.write(`ack ${id} ${p.taskIndex}\n`);
}
