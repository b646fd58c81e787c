// Reads float tensors from a torch checkpoint (.pth): the zip format of torch >= 1.6
// (<stem>/data.pkl + <stem>/data/<key> raw storages) and the legacy stream format (pickled
// magic, protocol, sys info, object, storage keys, then each storage as int64 count + data).
// Output: every tensor of the (possibly nested-in-OrderedDict) state dict, contiguous float32
// in torch (row-major) order. Invariant: only the classes a state dict needs are accepted.
import { isZip, ZipArchive } from '../io/zip';
import { type PickleGlobal, type PickleHooks, type PickleValue, unpickle } from './pickle';
import type { NamedTensor } from '../../shared/metrics/lpips-weights';

export class PthError extends Error {
  constructor(message: string) {
    super(`pth: ${message}`);
    this.name = 'PthError';
  }
}

const ELEMENT: Record<string, { bytes: number; read: (v: DataView, at: number) => number }> = {
  FloatStorage: { bytes: 4, read: (v, at) => v.getFloat32(at, true) },
  DoubleStorage: { bytes: 8, read: (v, at) => v.getFloat64(at, true) },
};

class StorageRef {
  data: DataView | null = null;
  constructor(
    readonly key: string,
    readonly type: string,
    readonly numel: number,
  ) {}
}

class TensorRef {
  constructor(
    readonly storage: StorageRef,
    readonly offset: number,
    readonly size: number[],
    readonly stride: number[],
  ) {}
}

const isGlobal = (v: PickleValue, module: string, name: string): boolean =>
  typeof v === 'object' && v !== null && (v as PickleGlobal).kind === 'global' && (v as PickleGlobal).module === module && (v as PickleGlobal).name === name;

function ints(v: PickleValue, what: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isInteger(x))) throw new PthError(`${what} is not a tuple of integers`);
  return v as number[];
}

function hooks(storages: Map<string, StorageRef>, legacy: boolean): PickleHooks {
  return {
    reduce(fn, args) {
      if (isGlobal(fn, 'collections', 'OrderedDict')) return new Map();
      if (isGlobal(fn, 'torch._utils', '_rebuild_tensor_v2') || isGlobal(fn, 'torch._utils', '_rebuild_tensor')) {
        const [storage, offset, size, stride] = args;
        if (!(storage instanceof StorageRef) || typeof offset !== 'number') throw new PthError('malformed tensor record');
        return new TensorRef(storage, offset, ints(size, 'tensor size'), ints(stride, 'tensor stride'));
      }
      if (isGlobal(fn, 'torch._utils', '_rebuild_parameter')) return args[0];
      const g = fn as PickleGlobal;
      throw new PthError(`unsupported object ${g.kind === 'global' ? `${g.module}.${g.name}` : typeof fn} in the checkpoint`);
    },
    build(obj) {
      return obj; // OrderedDict._metadata and similar attributes are not needed
    },
    persistentLoad(pid) {
      if (!Array.isArray(pid) || pid[0] !== 'storage' || pid.length < 5) throw new PthError('unsupported persistent id');
      const [, type, key, , numel] = pid;
      const g = type as PickleGlobal;
      if (g?.kind !== 'global' || g.module !== 'torch') throw new PthError('storage type is not a torch class');
      if (!ELEMENT[g.name]) throw new PthError(`unsupported storage type torch.${g.name} (float32 or float64 only)`);
      if (legacy && pid[5] !== null && pid[5] !== undefined) throw new PthError('legacy storage views are not supported');
      if (typeof numel !== 'number') throw new PthError('storage size is not a number');
      const k = String(key);
      let ref = storages.get(k);
      if (!ref) {
        ref = new StorageRef(k, g.name, numel);
        storages.set(k, ref);
      }
      return ref;
    },
  };
}

function attach(ref: StorageRef, bytes: Uint8Array): void {
  const need = ref.numel * ELEMENT[ref.type].bytes;
  if (bytes.length < need) throw new PthError(`storage ${ref.key} has ${bytes.length} bytes, expected ${need}`);
  ref.data = new DataView(bytes.buffer, bytes.byteOffset, need);
}

function readZip(buf: Uint8Array): { root: PickleValue; storages: Map<string, StorageRef> } {
  const zip = new ZipArchive(buf);
  const pkl = zip.names().find((n) => n === 'data.pkl' || n.endsWith('/data.pkl'));
  if (!pkl) throw new PthError('zip archive has no data.pkl (not a torch checkpoint)');
  const prefix = pkl.slice(0, pkl.length - 'data.pkl'.length);
  const storages = new Map<string, StorageRef>();
  const { value } = unpickle(zip.read(pkl), hooks(storages, false));
  for (const ref of storages.values()) {
    const name = `${prefix}data/${ref.key}`;
    if (!zip.has(name)) throw new PthError(`storage ${name} is missing from the archive`);
    attach(ref, zip.read(name));
  }
  return { root: value, storages };
}

function readLegacy(buf: Uint8Array): { root: PickleValue; storages: Map<string, StorageRef> } {
  const none: PickleHooks = { reduce: () => { throw new PthError('unexpected object in the legacy header'); } };
  const magic = unpickle(buf, none);
  if (magic.value !== 0x1950a86a20f9469cfc6cn) throw new PthError('not a torch checkpoint (bad magic number)');
  const protocol = unpickle(buf, none, magic.end);
  if (protocol.value !== 1001) throw new PthError(`unsupported legacy protocol ${String(protocol.value)}`);
  const sysInfo = unpickle(buf, none, protocol.end);
  const storages = new Map<string, StorageRef>();
  const root = unpickle(buf, hooks(storages, true), sysInfo.end);
  const keys = unpickle(buf, none, root.end);
  if (!Array.isArray(keys.value)) throw new PthError('legacy storage key list is missing');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = keys.end;
  for (const key of keys.value) {
    const ref = storages.get(String(key));
    if (at + 8 > buf.length) throw new PthError(`file truncated before storage ${String(key)}`);
    const count = Number(view.getBigInt64(at, true));
    at += 8;
    const bytes = count * (ref ? ELEMENT[ref.type].bytes : 4);
    if (at + bytes > buf.length) throw new PthError(`file truncated inside storage ${String(key)}`);
    if (ref) attach(ref, buf.subarray(at, at + bytes));
    at += bytes;
  }
  return { root: root.value, storages };
}

function dense(t: TensorRef): Float32Array {
  const { data, type } = t.storage;
  if (!data) throw new PthError(`storage ${t.storage.key} has no data`);
  const el = ELEMENT[type];
  const count = t.size.reduce((p, v) => p * v, 1);
  const out = new Float32Array(count);
  const idx = new Array<number>(t.size.length).fill(0);
  for (let i = 0; i < count; i++) {
    let at = t.offset;
    for (let d = 0; d < idx.length; d++) at += idx[d] * t.stride[d];
    if (at < 0 || at >= t.storage.numel) throw new PthError(`tensor reads past storage ${t.storage.key}`);
    out[i] = el.read(data, at * el.bytes);
    for (let d = idx.length - 1; d >= 0; d--) {
      if (++idx[d] < t.size[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

/** All tensors of a checkpoint's state dict, by name. */
export function readTorchStateDict(buf: Uint8Array): Record<string, NamedTensor> {
  const { root } = isZip(buf) ? readZip(buf) : readLegacy(buf);
  // Some checkpoints wrap the weights: {'state_dict': OrderedDict(...)}.
  const dict = root instanceof Map && root.get('state_dict') instanceof Map ? (root.get('state_dict') as Map<PickleValue, PickleValue>) : root;
  if (!(dict instanceof Map)) throw new PthError('checkpoint is not a state dict');
  const out: Record<string, NamedTensor> = {};
  for (const [k, v] of dict) {
    if (v instanceof TensorRef) out[String(k)] = { shape: v.size, data: dense(v) };
  }
  return out;
}
