// study.create's default texts come from the study's own tasks' kinds (each kind module's
// participant texts); texts the experimenter gives win.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudyStore } from '../../../src/main/study/store';
import { relationKind } from '../../../src/shared/kinds/relation/kind';
import { splatbenchKind } from '../../../src/shared/kinds/splatbench/kind';
import type { ParticipantTexts } from '../../../src/shared/study/config';

describe('StudyStore.create', () => {
  it("fills the default texts from the study's own tasks' kinds", async () => {
    const home = mkdtempSync(join(tmpdir(), 'splatlab-texts-'));
    try {
      const store = new StudyStore(home);
      const kinds: Record<string, ParticipantTexts> = { r1: relationKind.participant, r2: relationKind.participant, s1: splatbenchKind.participant, s2: splatbenchKind.participant };
      const known = new Set(Object.keys(kinds));
      const relation = await store.create({ name: 'Relations', tasks: ['r2'], practiceTask: 'r1' }, known, new Date(), (id) => kinds[id]);
      expect(relation.texts.consent).toContain('in front, behind, left or right');
      expect(relation.texts.consent).not.toContain('Gaussians');
      const splat = await store.create({ name: 'Splats', tasks: ['s2'], practiceTask: 's1' }, known, new Date(), (id) => kinds[id]);
      expect(splat.texts.consent).toContain('Gaussians');
      const given = await store.create({ name: 'Own', tasks: ['r2'], practiceTask: 'r1', texts: { consent: 'Mine.' } }, known, new Date(), (id) => kinds[id]);
      expect(given.texts.consent).toBe('Mine.');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
