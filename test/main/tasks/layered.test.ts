// The user's tasks in the lab home (issue 38 item 8, docs/TASKS.md "Where tasks live"): a lab
// home's task folder lists and loads the built-in set beside the user's own tasks, a user task
// may use a built-in object, every content hash of a built-in task is the one it has in the
// built-in folder, and writing a built-in task id, object or file there is refused in one line
// with nothing written (the built-in set is read-only to the lab). A folder named explicitly
// (tests, `--tasks DIR`) is read alone.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listObjectDocuments } from '../../../src/main/authoring/documents';
import { buildStaged } from '../../../src/main/authoring/staging';
import { checkFree } from '../../../src/main/authoring/session/save';
import { taskEntry } from '../../../src/main/kinds/task-registry';
import { loadTask, readSpec, taskIds } from '../../../src/main/tasks/load';
import { builtInTasksDir, checkNoBuiltInFiles, layerBelow, resolveTasksDir, userTasksDir } from '../../../src/main/tasks/paths';

const builtIn = builtInTasksDir();
const home = () => mkdtempSync(join(tmpdir(), 'splatlab-layered-'));

/** A user task: the built-in mushroom's sculpt spec under a new id (its object stays the built-in one). */
function userTask(dir: string, id: string): void {
  const spec = JSON.parse(JSON.stringify(readSpec(builtIn, 'mushroom__sculpt'))) as { task_id: string };
  spec.task_id = id;
  writeFileSync(join(dir, `${id}.json`), `${JSON.stringify(spec)}\n`);
}

describe('a lab home layered over the built-in set', () => {
  it('lists and loads the built-in tasks beside the user task, with the built-in hashes', async () => {
    const dir = userTasksDir(home());
    expect(layerBelow(dir)).toBe(builtIn);
    expect(existsSync(dir)).toBe(false);
    expect(taskIds(dir)).toEqual(taskIds(builtIn));
    mkdirSync(dir, { recursive: true });
    userTask(dir, 'my__sculpt');
    expect(taskIds(dir)).toEqual([...taskIds(builtIn), 'my__sculpt'].sort());
    const mine = await loadTask('my__sculpt', { tasksDir: dir });
    expect(mine.dir).toBe(join(builtIn, 'objects', 'mushroom'));
    expect(mine.reference.length).toBeGreaterThan(0);
    expect(taskEntry(dir, 'mushroom__sculpt')).toEqual(taskEntry(builtIn, 'mushroom__sculpt'));
    expect(listObjectDocuments(dir).map((d) => d.name)).toEqual(listObjectDocuments(builtIn).map((d) => d.name));
  });

  it('refuses a built-in task id, object or file in one line and writes nothing', async () => {
    const dir = userTasksDir(home());
    expect(() => checkFree(dir, 'mushroom', true)).toThrow(/^'mushroom' is an object of the built-in set, which is read-only; choose another name/);
    expect(() => checkFree(dir, 'a_new_one', false)).not.toThrow();
    let built = false;
    await expect(buildStaged(dir, 'tree', async () => {
      built = true;
    })).rejects.toThrow(/^'tree' is an object of the built-in set/);
    expect(built).toBe(false);
    // A build whose specs carry a built-in id is refused at install: the staging folder goes, nothing lands.
    await expect(buildStaged(dir, 'sapling', async (staged) => {
      writeFileSync(join(staged.root, 'tree__sculpt.json'), '{}\n');
    })).rejects.toThrow(/^tree__sculpt: a task of the built-in set, which is read-only/);
    expect(readdirSync(dir)).toEqual([]);
    expect(() => checkNoBuiltInFiles(dir, ['search/rooms/room-1.json', 'search/rooms/mine.json'])).toThrow(/^search\/rooms\/room-1\.json: a file of the built-in set/);
  });

  it('reads a folder named explicitly alone, and there writes what it is asked to', async () => {
    const dir = join(home(), 'tasks');
    expect(resolveTasksDir(dir)).toBe(dir);
    expect(layerBelow(dir)).toBeNull();
    expect(taskIds(dir)).toEqual([]);
    cpSync(join(builtIn, 'tree__sculpt.json'), join(dir, 'tree__sculpt.json'));
    expect(() => checkFree(dir, 'tree', true)).not.toThrow();
    expect(taskIds(dir)).toEqual(['tree__sculpt']);
  });
});
