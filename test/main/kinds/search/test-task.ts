// A hand-made search task for the main-side tests: one red cube in an empty room, asked about
// from a start view that faces away from it (six turns to an answerable view).
// Output: a fresh tasks folder holding search__t1 and its room.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyRoom, target } from '../../../shared/kinds/search/rooms';

export function searchTestTasks(): string {
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-search-'));
  mkdirSync(join(dir, 'rooms'));
  writeFileSync(join(dir, 'rooms', 'test-room.json'), JSON.stringify(emptyRoom([target('cube-1', [3, 2, 1], 0.2)])));
  writeFileSync(join(dir, 'search__t1.json'), JSON.stringify({
    task_id: 'search__t1', kind: 'search', room: 'rooms/test-room.json',
    question: { id: 'test-room/color-1', family: 'color', text: 'What colour is the cube?', answer: { type: 'text', correct: 'red', synonyms: ['scarlet'] }, needs: ['cube-1'] },
    start: { x: 2, y: 2, z: 1, yaw: 180, pitch: 0 }, goal: { x: 2, y: 2, z: 1, yaw: 0, pitch: 0 }, answerable: [{ x: 2, y: 2, z: 1, yaw: 0, pitch: 0 }], distance: 6,
  }));
  return dir;
}
