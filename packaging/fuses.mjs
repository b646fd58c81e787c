// The Electron fuses of src/main/electron/fuses.ts (the one list; docs/SECURITY.md) applied to a
// packaged binary with @electron/fuses and read back: a fuse that did not take fails the build.
// Used by the electron-builder afterPack hook (packaging/after-pack.mjs) and by
// scripts/flip-fuses.mjs. Input: the path of the Electron binary (a .app on macOS).
// Invariant: every fuse of the wire is set explicitly (strictlyRequireAllFuses).
import { flipFuses, FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';
import { tsImport } from 'tsx/esm/api';

/** A fuse's byte in the wire: ASCII '1' on, '0' off (@electron/fuses does not export its FuseState). */
const ON = 0x31;
const OFF = 0x30;

/** FUSES, loaded from its TypeScript source (packaging runs on the sources' dev tools). */
export async function fuseList() {
  const mod = await tsImport('../src/main/electron/fuses.ts', import.meta.url);
  return mod.FUSES;
}

/** The @electron/fuses config for FUSES. */
export async function fuseConfig(opts = {}) {
  const config = { version: FuseVersion.V1, strictlyRequireAllFuses: true, ...opts };
  for (const [name, value] of Object.entries(await fuseList())) {
    if (FuseV1Options[name] === undefined) throw new Error(`fuses: '${name}' is not a fuse @electron/fuses knows`);
    config[FuseV1Options[name]] = value;
  }
  return config;
}

/** Flips the fuses of `binary`, then reads them back; throws naming any fuse that differs. */
export async function applyFuses(binary, opts = {}) {
  await flipFuses(binary, await fuseConfig(opts));
  const wire = await getCurrentFuseWire(binary);
  const wrong = Object.entries(await fuseList()).filter(([name, value]) => wire[FuseV1Options[name]] !== (value ? ON : OFF));
  if (wrong.length) throw new Error(`fuses: ${wrong.map(([n]) => n).join(', ')} did not take on ${binary}`);
  return wire;
}

/** Where electron-builder put the Electron binary of a packed app (its afterPack context). */
export function packedBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return `${appOutDir}/${name}.app`;
  if (electronPlatformName === 'win32') return `${appOutDir}/${name}.exe`;
  return `${appOutDir}/${packager.executableName}`;
}
