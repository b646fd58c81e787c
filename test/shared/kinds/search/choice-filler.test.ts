// parseChoice on a reply made only of filler words ("it", "the object"): it names no choice, even
// when one choice is itself all filler ("one" in a counting question), whose content words are
// empty too; an empty reply must not match an empty choice (docs/MUTATION.md, search survivors).
import { describe, expect, it } from 'vitest';
import { parseChoice } from '../../../../src/shared/kinds/search/answer-read';

describe('parseChoice with filler-only text', () => {
  const counts = ['one', 'two', 'three'];
  it('reads no choice from a reply of filler words', () => {
    expect(parseChoice('it', counts)).toBeNull();
    expect(parseChoice('the object', counts)).toBeNull();
    expect(parseChoice('', counts)).toBeNull();
  });
  it('still reads the choices by letter and by a content word', () => {
    expect(parseChoice('a', counts)).toBe('one');
    expect(parseChoice('two', counts)).toBe('two');
    expect(parseChoice('c) three', counts)).toBe('three');
  });
});
