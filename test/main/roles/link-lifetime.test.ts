// A participant link lives SPLATLAB_PARTICIPANT_LINK_HOURS hours when that is a positive number, and
// PARTICIPANT_LINK_HOURS otherwise (survivors of the roles mutation run, docs/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { linkLifetimeFromEnv, PARTICIPANT_LINK_HOURS } from '../../../src/main/services/roles';

const hour = 3_600_000;

describe('participant link lifetime', () => {
  it('takes a positive number of hours from the environment', () => {
    expect(linkLifetimeFromEnv({ SPLATLAB_PARTICIPANT_LINK_HOURS: '2' })).toBe(2 * hour);
    expect(linkLifetimeFromEnv({ SPLATLAB_PARTICIPANT_LINK_HOURS: '0.5' })).toBe(0.5 * hour);
  });

  it('falls back to the default for nothing, zero, a negative or a non-number', () => {
    for (const v of [undefined, '0', '-3', 'soon', 'Infinity']) {
      expect(linkLifetimeFromEnv(v === undefined ? {} : { SPLATLAB_PARTICIPANT_LINK_HOURS: v })).toBe(PARTICIPANT_LINK_HOURS * hour);
    }
  });
});
