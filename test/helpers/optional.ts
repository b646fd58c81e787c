// The optional parts of the unit suite (issue 38 item 7; docs/DEVELOPING.md "Optional parts"):
// tests that need the GPU adapter (Debian's Vulkan SwiftShader ICD), a redis-server, python3 (with
// numpy) or the LPIPS weights and test vectors (../shared/data/lpips-alex) ask
// `skipWithout(part, present)` for their skipIf. Without the part they skip on a developer's
// machine, but under CI=true a missing part is a failing test of one line, so a green CI run means
// every part ran. Data that only some machines hold (the lego capture) is reported, never required.
// Each file records what it found under the folder the global setup provides
// (test/helpers/optional-setup.ts), which prints at the end which parts ran and which were missing.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

export const OPTIONAL_PARTS = {
  gpu: { what: 'the GPU adapter (Vulkan SwiftShader ICD, /usr/lib/*/vk_swiftshader_icd.json)', ci: true },
  redis: { what: 'redis-server on the PATH', ci: true },
  python: { what: 'python3 with numpy', ci: true },
  python3: { what: 'python3 (the Python package\'s standard-library core)', ci: true },
  venv: { what: 'python3 with its venv module (Debian: python3-venv) for the Python package\'s install test', ci: true },
  lpips: { what: 'the LPIPS weights and test vectors (../shared/data/lpips-alex or SPLATLAB_LPIPS_DIR)', ci: true },
  pipIndex: { what: "a local pip package index with gymnasium and transformers (pip.conf's file:// index-url; the Python package's gym and trl extras)", ci: false },
  lego: { what: 'the NeRF-Synthetic lego capture (../shared/data/nerf-synthetic-lego-24)', ci: false },
} as const;
export type OptionalPart = keyof typeof OPTIONAL_PARTS;

declare module 'vitest' {
  export interface ProvidedContext {
    optionalPartsDir: string;
  }
}

function record(part: OptionalPart, present: boolean): void {
  let dir: string;
  try {
    dir = inject('optionalPartsDir');
  } catch {
    return; // run without the global setup (a single file from another config): nothing to report
  }
  if (!dir) return;
  const file = expect.getState().testPath ?? process.argv[1] ?? 'unknown';
  mkdirSync(dir, { recursive: true });
  const name = createHash('sha256').update(`${file}\0${part}`).digest('hex').slice(0, 16);
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ file, part, present }));
}

/** The one line a CI run fails with when `part` is missing. */
export function missingLine(part: OptionalPart): string {
  return `CI=true and ${OPTIONAL_PARTS[part].what} is missing: install it (docs/DEVELOPING.md "Optional parts"); a CI run never skips it`;
}

/**
 * True when the tests that need `part` must skip (it is missing and this is not CI). Under
 * CI=true a missing part registers one failing test with one line (and the tests that need it
 * skip, so nothing fails for another reason).
 */
export function skipWithout(part: OptionalPart, present: boolean): boolean {
  record(part, present);
  if (present) return false;
  if (process.env.CI === 'true' && OPTIONAL_PARTS[part].ci) {
    describe(`optional part '${part}'`, () => {
      it('is present under CI=true', () => {
        throw new Error(missingLine(part));
      });
    });
  }
  return true;
}
