// Tool arguments are refused before any charge when they hold a number no tool can use, and the
// refusal names where it sits from `args` down; request ids are printable ASCII (docs/MUTATION.md:
// the `args` prefix survived the env mutation run).
import { describe, expect, it } from 'vitest';
import { RequestIdSchema, ToolArgsSchema, unsafeNumberAt } from '../../../src/shared/env/request-id';

const message = (value: unknown): string | undefined => ToolArgsSchema.safeParse(value).error?.issues[0]?.message;

describe('unusable numbers in tool arguments', () => {
  it('are named by their path from args', () => {
    expect(message({ a: [1, Number.NaN] })).toBe('args.a.1: NaN is not a usable number (finite, at most 2^53 - 1 in magnitude)');
    expect(message(Infinity)).toBe('args: Infinity is not a usable number (finite, at most 2^53 - 1 in magnitude)');
    expect(unsafeNumberAt({ x: 2 ** 53 }, 'call')).toBe('call.x: 9007199254740992 is not a usable number (finite, at most 2^53 - 1 in magnitude)');
  });

  it('let every safe value through', () => {
    expect(ToolArgsSchema.safeParse({ a: [1, -2.5, Number.MAX_SAFE_INTEGER], b: 'x', c: null }).success).toBe(true);
    expect(unsafeNumberAt({ a: [-Number.MAX_SAFE_INTEGER] })).toBeNull();
  });
});

describe('request ids', () => {
  it('are 1 to 128 printable characters without spaces', () => {
    expect(RequestIdSchema.safeParse('abc-1').success).toBe(true);
    expect(RequestIdSchema.safeParse('a b').success).toBe(false);
    expect(RequestIdSchema.safeParse('').success).toBe(false);
    expect(RequestIdSchema.safeParse('x'.repeat(129)).success).toBe(false);
  });
});
