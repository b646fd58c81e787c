// Unpickler: values pickled by CPython (bytes below from pickle.dumps), hooks, and errors.
import { describe, expect, it } from 'vitest';
import { PickleError, unpickle, type PickleHooks } from '../../../src/main/lpips/pickle';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const noHooks: PickleHooks = { reduce: () => { throw new Error('no reduce expected'); } };

describe('unpickle', () => {
  it("reads pickle.dumps({'a': 1, 'b': ([2, True, None], -5, 1.5, 2**70, 300, 70000)}, protocol=2)", () => {
    const buf = hex('80027d71002858010000006171014b015801000000627102285d7103284b02884e654afbffffff473ff80000000000008a090000000000000000404d2c014a70110100747104752e');
    const { value, end } = unpickle(buf, noHooks);
    expect(end).toBe(buf.length);
    expect(value).toEqual(new Map<unknown, unknown>([['a', 1], ['b', [[2, true, null], -5, 1.5, 2n ** 70n, 300, 70000]]]));
  });

  it('reads protocol 4 framing, SHORT_BINUNICODE and MEMOIZE', () => {
    expect(unpickle(hex('80049507000000000000008c01789485942e'), noHooks).value).toEqual(['x']);
  });

  it('calls the reduce and persistent-id hooks', () => {
    // GLOBAL 'm f', MARK, BININT1 7, TUPLE, REDUCE, then BINPERSID of 'k', TUPLE2, STOP
    const text = 'cm\nf\n(K\x07tR' + 'X\x01\x00\x00\x00kQ\x86.';
    const buf = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const value = unpickle(buf, { reduce: (fn, args) => ({ fn, args }), persistentLoad: (pid) => `loaded ${String(pid)}` }).value;
    expect(value).toEqual([{ fn: { kind: 'global', module: 'm', name: 'f' }, args: [7] }, 'loaded k']);
  });

  it('rejects unknown opcodes and truncated input with a PickleError', () => {
    expect(() => unpickle(hex('8002ff'), noHooks)).toThrow(/unsupported opcode 0xff/);
    expect(() => unpickle(hex('80025801000000'), noHooks)).toThrow(PickleError);
    expect(() => unpickle(hex('8002'), noHooks)).toThrow(/truncated/);
  });
});
