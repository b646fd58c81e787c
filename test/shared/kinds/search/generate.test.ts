// The richer generated rooms and goal-first episodes: furniture, textures and signs in every room,
// a sign read only from close enough, printed letters facing the room, and episodes whose start
// does not answer, whose A* path replays through the rules to the goal, deterministic in the seed.
import { describe, expect, it } from 'vitest';
import { pathTo } from '../../../../src/shared/kinds/search/astar';
import { buildEpisodes } from '../../../../src/shared/kinds/search/build-tasks';
import { PrimitiveCollider } from '../../../../src/shared/kinds/search/collide';
import { generateRoom } from '../../../../src/shared/kinds/search/generate-room';
import { labelSamples } from '../../../../src/shared/kinds/search/print';
import { generateQuestions } from '../../../../src/shared/kinds/search/questions';
import { roomParts } from '../../../../src/shared/kinds/search/room';
import { SearchRules } from '../../../../src/shared/kinds/search/rules';
import { DEFAULT_MOTION } from '../../../../src/shared/kinds/search/pose';
import { RoomVisibility } from '../../../../src/shared/kinds/search/visibility';
import { motionWorld } from '../../../../src/shared/kinds/search/world';
import type { Part } from '../../../../src/shared/authoring/primitives';

describe('generated rooms', () => {
  it('furnish every room and print a readable word on its sign', () => {
    const room = generateRoom(5);
    const ids = room.nodes.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(['chair', 'rug', 'lamp', 'sign-west']));
    expect(room.nodes.find((n) => n.id === 'floor')?.texture).toBe('planks');
    const sign = room.nodes.find((n) => n.id === 'sign-west')!;
    const q = generateQuestions(room).find((x) => x.family === 'sign' && x.needs[0] === 'sign-west')!;
    expect(q.answer).toEqual({ type: 'text', correct: sign.label!.text.toLowerCase(), synonyms: [] });
    // Ink lies just in front of the plate's room-side face, and the text runs along +Y there
    // (left to right for a viewer facing the west wall).
    const part = sign.parts[0] as Part;
    const ink = labelSamples(part, sign.label!.text, sign.label!.normal);
    expect(ink.every((s) => s.p[0] > part.pos[0] + 0.015 && s.n[0] === 1)).toBe(true);
    const first = ink.slice(0, 4).reduce((a, s) => a + s.p[1], 0) / 4;
    const last = ink.slice(-4).reduce((a, s) => a + s.p[1], 0) / 4;
    expect(last).toBeGreaterThan(first);
    const vis = new RoomVisibility(room);
    const facing = (d: number) => ({ x: part.pos[0] + d, y: part.pos[1], z: part.pos[2], yaw: 180, pitch: 0 });
    expect(vis.answerable(facing(1), ['sign-west'])).toBe(true);
    // Seen but too small to read from 2.5 m.
    expect(vis.measure(facing(2.5), 'sign-west').inFrame).toBe(1);
    expect(vis.answerable(facing(2.5), ['sign-west'])).toBe(false);
  });

  it('make goal-first episodes that replay to their goal, deterministically', () => {
    const room = generateRoom(8);
    const a = buildEpisodes(room, { seed: 3, questions: 6, tries: 16 });
    expect(a).toEqual(buildEpisodes(room, { seed: 3, questions: 6, tries: 16 }));
    expect(a.length).toBeGreaterThanOrEqual(4);
    const collider = new PrimitiveCollider(roomParts(room).map((p) => p.part));
    const vis = new RoomVisibility(room);
    const w = motionWorld(collider);
    for (const e of a) {
      expect(vis.answerable(e.start, e.question.needs)).toBe(false);
      expect(vis.answerable(e.goal, e.question.needs)).toBe(true);
      const path = pathTo(w, e.start, e.goal, { maxDepth: 24 })!;
      expect(path.length).toBe(e.distance);
      expect(e.distance).toBeGreaterThanOrEqual(3);
      const rules = new SearchRules({ question: 'q', choices: [], start: e.start, maxSteps: 25, motion: DEFAULT_MOTION, radius: 0.1, defaultForward: true }, collider);
      for (const t of path) rules.step({ tool: t });
      expect(rules.currentPose()).toEqual(e.goal);
      expect(rules.collisions()).toBe(0);
    }
  }, 60_000);
});
