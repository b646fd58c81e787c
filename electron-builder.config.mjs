// Packaging of the desktop app (`npm run dist`: the electron-vite build, then electron-builder
// with this file; docs/SECURITY.md "Electron app"). The app is the built out/ folder (main,
// preload, renderer, the worker entry) inside an integrity-checked asar; native modules (Dawn)
// stay unpacked beside it; the afterPack hook flips the fuses of src/main/electron/fuses.ts on
// the packed binary and checks them (packaging/after-pack.mjs).
export default {
  appId: 'org.splatlab.app',
  productName: 'SplatLab',
  directories: { output: 'dist', buildResources: 'packaging' },
  files: ['out/**/*', 'shaders/**/*', 'package.json', '!**/*.map'],
  asar: true,
  asarUnpack: ['**/*.node'],
  afterPack: './packaging/after-pack.mjs',
  linux: { target: 'dir', category: 'Science' },
  mac: { target: 'dir', hardenedRuntime: true },
  win: { target: 'dir' },
};
