// Default participant texts follow the study's kinds of task (each kind module's `participant`
// texts): a SplatBench study keeps its texts word for word, a relation or search study is not
// told about Gaussians, and a mixed study describes each kind once.
import { describe, expect, it } from 'vitest';
import { defaultTexts } from '../../../src/shared/study/config';
import { defaultKind, kindModule } from '../../../src/shared/kinds/registry';
import { relationKind } from '../../../src/shared/kinds/relation/kind';
import { searchKind } from '../../../src/shared/kinds/search/kind';
import { splatbenchKind } from '../../../src/shared/kinds/splatbench/kind';

/** A study's default texts: its default kind's (SplatBench's). */
const DEFAULT_TEXTS = defaultTexts([kindModule(defaultKind()).participant]);

describe('default study texts per kind', () => {
  it('a SplatBench study keeps the texts it always had', () => {
    expect(DEFAULT_TEXTS.consent.startsWith('You are invited to take part in a study of how people rebuild 3D objects from photos.')).toBe(true);
    expect(DEFAULT_TEXTS.consent).toContain('coloured 3D blobs ("Gaussians") with a limited number of actions. Your actions and their timing are recorded');
    expect(DEFAULT_TEXTS.instructions.split('\n\n')).toHaveLength(5);
  });

  it('a relation study speaks of front, behind, left and right, not of Gaussians', () => {
    const t = defaultTexts([relationKind.participant, relationKind.participant]);
    expect(t.consent).toContain('in front, behind, left or right');
    expect(t.consent).not.toContain('Gaussians');
    expect(t.instructions).toContain('arrow keys');
    expect(t.instructions).not.toContain('Commit');
  });

  it('a mixed study describes each kind once, in order', () => {
    const t = defaultTexts([searchKind.participant, splatbenchKind.participant, searchKind.participant]);
    expect(t.consent.indexOf('virtual room')).toBeLessThan(t.consent.indexOf('Gaussians'));
    expect(t.consent.split('virtual room')).toHaveLength(2);
    expect(t.consent.startsWith('You are invited to take part in a study of how people see and reason about 3D scenes.')).toBe(true);
  });
});
