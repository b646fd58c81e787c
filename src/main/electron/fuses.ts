// Electron fuses the packaged app must have flipped (applied by the build: the electron-builder
// afterPack hook packaging/after-pack.mjs, or scripts/flip-fuses.mjs for a binary packaged
// otherwise, both through packaging/fuses.mjs with @electron/fuses; docs/SECURITY.md). Plain data keyed by the
// FuseV1Options names, so it is tested without the Electron binary.
// Invariant: every fuse is set explicitly; nothing that lets the binary run as plain Node, take
// Node options from the environment or load code from outside the integrity-checked asar.
export const FUSES = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  LoadBrowserProcessSpecificV8Snapshot: false,
  GrantFileProtocolExtraPrivileges: false,
} as const satisfies Record<string, boolean>;
