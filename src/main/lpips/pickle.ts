// Minimal unpickler for torch checkpoints (protocol 2, plus the few protocol-4 framing opcodes).
// Input: pickle bytes and hooks for classes (GLOBAL + REDUCE/BUILD) and persistent ids.
// Output: plain values: null, boolean, number, bigint, string, arrays (lists and tuples),
// Map for dicts, and whatever the hooks build. Invariant: no code from the file is executed;
// an unknown opcode or class is an error naming it.

export class PickleError extends Error {
  constructor(message: string) {
    super(`pickle: ${message}`);
    this.name = 'PickleError';
  }
}

/** A class or function named by a GLOBAL opcode, resolved by the caller's hook. */
export interface PickleGlobal {
  kind: 'global';
  module: string;
  name: string;
}

export type PickleValue = null | boolean | number | bigint | string | PickleValue[] | Map<PickleValue, PickleValue> | PickleGlobal | object;

export interface PickleHooks {
  /** Called for REDUCE: `fn(*args)`. */
  reduce(fn: PickleValue, args: PickleValue[]): PickleValue;
  /** Called for BUILD: `obj.__setstate__(state)`; returns the object to keep on the stack. */
  build?(obj: PickleValue, state: PickleValue): PickleValue;
  persistentLoad?(pid: PickleValue): PickleValue;
}

const MARK = Symbol('mark');
type Slot = PickleValue | typeof MARK;

/** Unpickles one object starting at `offset`; returns it and the offset after STOP. */
export function unpickle(buf: Uint8Array, hooks: PickleHooks, offset = 0): { value: PickleValue; end: number } {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const stack: Slot[] = [];
  const memo = new Map<number, PickleValue>();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let at = offset;
  const need = (n: number): void => {
    if (at + n > buf.length) throw new PickleError(`truncated at byte ${at}`);
  };
  const take = (n: number): number => {
    need(n);
    at += n;
    return at - n;
  };
  const u8 = (): number => buf[take(1)];
  const u16 = (): number => view.getUint16(take(2), true);
  const u32 = (): number => view.getUint32(take(4), true);
  const i32 = (): number => view.getInt32(take(4), true);
  const bytes = (n: number): Uint8Array => buf.subarray(take(n), at);
  const line = () => {
    const end = buf.indexOf(0x0a, at);
    if (end < 0) throw new PickleError(`unterminated text at byte ${at}`);
    const s = new TextDecoder().decode(buf.subarray(at, end));
    at = end + 1;
    return s;
  };
  const pop = (): PickleValue => {
    const v = stack.pop();
    if (v === undefined || v === MARK) throw new PickleError(`stack underflow at byte ${at}`);
    return v;
  };
  const popMark = (): PickleValue[] => {
    const i = stack.lastIndexOf(MARK);
    if (i < 0) throw new PickleError(`no MARK on the stack at byte ${at}`);
    const items = stack.splice(i) as PickleValue[];
    return items.slice(1);
  };
  const top = (): PickleValue => {
    const v = stack[stack.length - 1];
    if (v === undefined || v === MARK) throw new PickleError(`stack underflow at byte ${at}`);
    return v;
  };
  const setItems = (dict: PickleValue, items: PickleValue[]) => {
    if (!(dict instanceof Map)) throw new PickleError(`SETITEM(S) on a non-dict at byte ${at}`);
    for (let i = 0; i + 1 < items.length; i += 2) dict.set(items[i], items[i + 1]);
  };
  const memoGet = (k: number) => {
    if (!memo.has(k)) throw new PickleError(`memo key ${k} not found`);
    return memo.get(k) as PickleValue;
  };
  for (;;) {
    const op = u8();
    switch (op) {
      case 0x80: u8(); break; // PROTO
      case 0x95: bytes(8); break; // FRAME (protocol 4): framing is ignorable
      case 0x2e: return { value: pop(), end: at }; // STOP
      case 0x7d: stack.push(new Map()); break; // EMPTY_DICT
      case 0x5d: stack.push([]); break; // EMPTY_LIST
      case 0x29: stack.push([]); break; // EMPTY_TUPLE
      case 0x28: stack.push(MARK); break; // MARK
      case 0x74: stack.push(popMark()); break; // TUPLE
      case 0x85: stack.push([pop()]); break; // TUPLE1
      case 0x86: { const b = pop(); stack.push([pop(), b]); break; } // TUPLE2
      case 0x87: { const c = pop(); const b = pop(); stack.push([pop(), b, c]); break; } // TUPLE3
      case 0x6c: stack.push(popMark()); break; // LIST
      case 0x61: { const v = pop(); const l = top(); if (!Array.isArray(l)) throw new PickleError('APPEND to a non-list'); l.push(v); break; } // APPEND
      case 0x65: { const items = popMark(); const l = top(); if (!Array.isArray(l)) throw new PickleError('APPENDS to a non-list'); l.push(...items); break; } // APPENDS
      case 0x64: { const items = popMark(); const d = new Map(); setItems(d, items); stack.push(d); break; } // DICT
      case 0x73: { const v = pop(); const k = pop(); setItems(top(), [k, v]); break; } // SETITEM
      case 0x75: { const items = popMark(); setItems(top(), items); break; } // SETITEMS
      case 0x4b: stack.push(u8()); break; // BININT1
      case 0x4d: stack.push(u16()); break; // BININT2
      case 0x4a: stack.push(i32()); break; // BININT
      case 0x8a: { // LONG1: little-endian two's complement of n bytes
        const n = u8();
        const b = bytes(n);
        let v = 0n;
        for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
        if (n > 0 && b[n - 1] & 0x80) v -= 1n << BigInt(8 * n);
        stack.push(v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
        break;
      }
      case 0x47: stack.push(view.getFloat64(take(8), false)); break; // BINFLOAT (big-endian)
      case 0x88: stack.push(true); break; // NEWTRUE
      case 0x89: stack.push(false); break; // NEWFALSE
      case 0x4e: stack.push(null); break; // NONE
      case 0x58: stack.push(decoder.decode(bytes(u32()))); break; // BINUNICODE
      case 0x8c: stack.push(decoder.decode(bytes(u8()))); break; // SHORT_BINUNICODE
      case 0x55: stack.push(new TextDecoder('latin1').decode(bytes(u8()))); break; // SHORT_BINSTRING
      case 0x54: stack.push(new TextDecoder('latin1').decode(bytes(u32()))); break; // BINSTRING
      case 0x71: memo.set(u8(), top()); break; // BINPUT
      case 0x72: memo.set(u32(), top()); break; // LONG_BINPUT
      case 0x94: memo.set(memo.size, top()); break; // MEMOIZE
      case 0x68: stack.push(memoGet(u8())); break; // BINGET
      case 0x6a: stack.push(memoGet(u32())); break; // LONG_BINGET
      case 0x63: { const module = line(); stack.push({ kind: 'global', module, name: line() }); break; } // GLOBAL
      case 0x93: { const name = pop(); const module = pop(); stack.push({ kind: 'global', module: String(module), name: String(name) }); break; } // STACK_GLOBAL
      case 0x52: { const args = pop(); const fn = pop(); if (!Array.isArray(args)) throw new PickleError('REDUCE arguments are not a tuple'); stack.push(hooks.reduce(fn, args)); break; } // REDUCE
      case 0x62: { const state = pop(); const obj = pop(); stack.push(hooks.build ? hooks.build(obj, state) : obj); break; } // BUILD
      case 0x51: { // BINPERSID
        const pid = pop();
        if (!hooks.persistentLoad) throw new PickleError('persistent id without a loader');
        stack.push(hooks.persistentLoad(pid));
        break;
      }
      default:
        throw new PickleError(`unsupported opcode 0x${op.toString(16)} at byte ${at - 1}`);
    }
  }
}
