// Hand-made rooms for the search tests: an empty 4 x 4 x 2.6 m room (walls, floor, ceiling) with
// extra nodes, and a camera-facing target. Plain data, validated by the room schema.
import type { Part } from '../../../../src/shared/authoring/primitives';
import { RoomSpecSchema, type RoomNode, type RoomSpec } from '../../../../src/shared/kinds/search/room';

export const box = (pos: [number, number, number], size: [number, number, number], color = '#808080'): Part => ({ kind: 'box', pos, size, color });

export function emptyRoom(extra: RoomNode[] = [], size: [number, number, number] = [4, 4, 2.6]): RoomSpec {
  const [X, Y, H] = size;
  const s = (id: string, part: Part): RoomNode => ({ id, role: 'structure', category: id, color: 'grey', parts: [part] });
  return RoomSpecSchema.parse({
    name: 'test-room', seed: 0, size, splat: { spacing: 0.05, shading: 'flat' },
    nodes: [
      s('floor', box([X / 2, Y / 2, -0.05], [X + 0.2, Y + 0.2, 0.1])),
      s('ceiling', box([X / 2, Y / 2, H + 0.05], [X + 0.2, Y + 0.2, 0.1])),
      s('wall-s', box([X / 2, -0.05, H / 2], [X + 0.2, 0.1, H])),
      s('wall-n', box([X / 2, Y + 0.05, H / 2], [X + 0.2, 0.1, H])),
      s('wall-w', box([-0.05, Y / 2, H / 2], [0.1, Y, H])),
      s('wall-e', box([X + 0.05, Y / 2, H / 2], [0.1, Y, H])),
      ...extra,
    ],
  });
}

export function target(id: string, pos: [number, number, number], side = 0.2, color = 'red'): RoomNode {
  return { id, role: 'target', category: 'cube', color, shape: 'cube', parts: [{ kind: 'box', pos, size: [side, side, side], color: [0.85, 0.12, 0.1] }] };
}
