// The one FNV-1a (src/shared/math/hash.ts) behind the lab's seeds from names, order keys and the
// hashes stored with a search judgement: the published 32-bit test vectors, bytes and strings
// alike, an offset basis mixed in, and values pinned where runs and stored judgements depend on
// them (the derived seeds, the judge prompt's hash).
import { describe, expect, it } from 'vitest';
import { FNV_OFFSET, fnv1a, fnv1aHex } from '../../../src/shared/math/hash';
import { deriveSeed } from '../../../src/shared/math/random';
import { promptHash } from '../../../src/shared/kinds/search/answers';
import { bytesHash, E3VS_JUDGE_PROMPT } from '../../../src/shared/kinds/search/judge-prompt';
import { hashSeed } from '../../../src/shared/kinds/relation/dataset';

describe('fnv1a', () => {
  it('gives the published 32-bit FNV-1a values', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1aHex(new TextEncoder().encode('foobar'))).toBe('bf9cf968');
    expect(fnv1aHex('')).toBe('811c9dc5');
  });

  it('hashes UTF-16 code units of a string, mixes a basis in, stays unsigned', () => {
    expect(fnv1a('é')).toBe(fnv1a(new Uint8Array([0xe9])));
    expect(fnv1a('ab', FNV_OFFSET ^ 5)).not.toBe(fnv1a('ab'));
    expect(fnv1a('ab', FNV_OFFSET ^ 0)).toBe(fnv1a('ab'));
    for (const s of ['x', 'splat', 'Grüße ✓']) expect(fnv1a(s)).toBeGreaterThanOrEqual(0);
  });

  it('keeps the values seeded runs and stored judgements were made with', () => {
    expect(deriveSeed(7, 'episode', 3)).toBe(3277922806);
    expect(promptHash()).toBe('02868d45');
    expect(promptHash('Grüße ✓')).toBe('81f4fd01');
    expect(promptHash(E3VS_JUDGE_PROMPT)).toBe('225f877a');
    expect(bytesHash(new Uint8Array([1, 2, 3]))).toBe(fnv1aHex(new Uint8Array([1, 2, 3])));
    expect(hashSeed('forest')).toBe(fnv1a('forest'));
  });
});
