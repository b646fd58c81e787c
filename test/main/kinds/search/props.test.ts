// Captured props in procedural rooms: the committed capture-like plant is read by the lab's
// importer (Y up from its header), fitted into its node's box standing on the floor, floaters far
// from it dropped, and added to the room's Gaussians; the prop file is a data file of its tasks.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchMain } from '../../../../src/main/kinds/search/kind';
import { withProps } from '../../../../src/main/kinds/search/props';
import { loadRoomScene } from '../../../../src/main/kinds/search/scene';
import { localHalfExtents } from '../../../../src/shared/authoring/geometry';
import type { Part } from '../../../../src/shared/authoring/primitives';
import { capturedPlant } from '../../../../src/shared/kinds/search/capture-like';

const dir = join(process.cwd(), 'tasks');

describe('captured props', () => {
  it('fits the plant into its box behind the cabinet and adds it to the room', async () => {
    const bare = loadRoomScene(join(dir, 'search/rooms/room-24.json'));
    const node = bare.room.nodes.find((n) => n.capture)!;
    expect(node.capture!.file).toBe('search/props/plant.ply');
    expect(node.place).toEqual({ relation: 'behind', of: 'cabinet' });
    const scene = await withProps(bare, dir);
    const added = scene.splats.count - bare.splats.count;
    const made = capturedPlant(1).count;
    // All but the floaters far outside the box.
    expect(added).toBeGreaterThan(made * 0.95);
    expect(added).toBeLessThan(made);
    const part = node.parts[0] as Part;
    const half = localHalfExtents(part);
    let lowest = Infinity;
    for (let i = bare.splats.count; i < scene.splats.count; i++) {
      const p = [0, 1, 2].map((a) => scene.splats.means[i * 3 + a]);
      for (let a = 0; a < 2; a++) expect(Math.abs(p[a] - part.pos[a])).toBeLessThanOrEqual(1.15 * half[a] + 1e-6);
      lowest = Math.min(lowest, p[2]);
    }
    // Standing on the floor (the box's bottom), not floating or sunk: the pot's base is at z = 0.
    expect(lowest).toBeGreaterThan(-0.011);
    expect(lowest).toBeLessThan(0.02);
    // A room without props is the same scene object.
    const plain = loadRoomScene(join(dir, 'search/rooms/room-1.json'));
    expect(await withProps(plain, dir)).toBe(plain);
    const head = { task_id: 'search__room-24__search-2-1', kind: 'search' } as never;
    expect(searchMain.dataFiles!(dir, head)).toContain(join(dir, 'search/props/plant.ply'));
  }, 60_000);
});
