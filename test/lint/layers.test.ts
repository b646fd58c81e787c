// The layer table of docs/DESIGN.md section 1, and the layers inside each runtime of
// docs/ARCHITECTURE.md, are enforced by eslint: each forbidden import, placed in
// a file of the wrong layer, must produce a no-restricted-imports error; allowed ones must not.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
}

describe('layer rules', () => {
  const violations: [string, string][] = [
    ['src/shared/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['src/shared/probe.ts', "import { ref } from 'vue';\nexport const x = ref;\n"],
    ['src/shared/probe.ts', "import { create } from 'webgpu';\nexport const x = create;\n"],
    ['src/shared/probe.ts', "import { startServer } from '../main/transport/ws';\nexport const x = startServer;\n"],
    ['src/renderer/probe.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n"],
    ['src/renderer/probe.ts', "import path from 'path';\nexport const x = path;\n"],
    ['src/renderer/probe.ts', "import { createLab } from '../main/app/context';\nexport const x = createLab;\n"],
    ['src/main/probe.ts', "import App from '../renderer/App.vue';\nexport const x = App;\n"],
    ['src/preload/probe.ts', "import { labMethods } from '../shared/api/lab';\nexport const x = labMethods;\n"],
    // Layers inside a runtime (docs/ARCHITECTURE.md).
    ['src/main/grader/probe.ts', "import { createLabServices } from '../services/lab';\nexport const x = createLabServices;\n"],
    ['src/main/env/probe.ts', "import { startServer } from '../transport/ws';\nexport const x = startServer;\n"],
    ['src/main/services/probe.ts', "import { startServer } from '../transport/ws';\nexport const x = startServer;\n"],
    ['src/main/io/probe.ts', "import { Grader } from '../grader/grader';\nexport const x = Grader;\n"],
    ['src/main/kinds/search/probe.ts', "import { StudyStore } from '../../study/store';\nexport const x = StudyStore;\n"],
    // A kind's study readers sit in the studies tier, its handlers in the services tier.
    ['src/main/kinds/relation/study/probe.ts', "import { createLabServices } from '../../../services/lab';\nexport const x = createLabServices;\n"],
    ['src/main/kinds/search/service/probe.ts', "import { startServer } from '../../../transport/ws';\nexport const x = startServer;\n"],
    ['src/main/kinds/search/deep/probe.ts', "import { StudyStore } from '../../../study/store';\nexport const x = StudyStore;\n"],
    ['src/main/formats/probe.ts', "import { loadAnyTask } from '../kinds/registry';\nexport const x = loadAnyTask;\n"],
    ['src/main/mcp/probe.ts', "import { runEmbedded } from '../queue/embedded';\nexport const x = runEmbedded;\n"],
    ['src/shared/raster/cpu/probe.ts', "import { labMethods } from '../../api/lab';\nexport const x = labMethods;\n"],
    ['src/shared/metrics/probe.ts', "import { Episode } from '../kinds/splatbench/episode';\nexport const x = Episode;\n"],
    ['src/shared/env/probe.ts', "import { labMethods } from '../api/lab';\nexport const x = labMethods;\n"],
    ['src/shared/raster/cpu/probe.ts', "import { orbitCamera } from '../../camera/orbit';\nexport const x = orbitCamera;\n"],
    ['src/main/workers/probe.ts', "import { jobHandlers } from '../threads/jobs';\nexport const x = jobHandlers;\n"],
    ['src/main/services/probe.ts', "import { runEpisode } from '../eval/episode';\nexport const x = runEpisode;\n"],
    ['src/main/tasks/probe.ts', "import { loadAnyTask } from '../kinds/registry';\nexport const x = loadAnyTask;\n"],
    ['src/renderer/components/probe.ts', "import { playViewFor } from '../kinds/registry';\nexport const x = playViewFor;\n"],
  ];
  it.each(violations)('rejects a forbidden import in %s: %s', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).toBeGreaterThan(0);
  });

  const allowed: [string, string][] = [
    ['src/shared/probe.ts', "import { z } from 'zod';\nexport const x = z;\n"],
    ['src/renderer/probe.ts', "import { labMethods } from '../shared/api/lab';\nexport const x = labMethods;\n"],
    ['src/main/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['src/preload/probe.ts', "import type { LabBridge } from '../shared/api/bridge';\nexport type X = LabBridge;\n"],
    ['src/main/services/probe.ts', "import { Grader } from '../grader/grader';\nexport const x = Grader;\n"],
    ['src/main/study/probe.ts', "import { searchMain } from '../kinds/search/kind';\nexport const x = searchMain;\n"],
    ['src/shared/camera/probe.ts', "import type { Camera } from '../raster/types';\nexport type X = Camera;\n"],
    ['src/main/threads/probe.ts', "import { drawView } from '../debug/draw';\nexport const x = drawView;\n"],
    ['src/renderer/kinds/probe.ts', "import { useLabStore } from '../stores/lab';\nexport const x = useLabStore;\n"],
    ['src/main/kinds/relation/study/probe.ts', "import { StudyStore } from '../../../study/store';\nexport const x = StudyStore;\n"],
    ['src/main/kinds/search/service/probe.ts', "import { refuseDuringSession } from '../../../services/session-lock';\nexport const x = refuseDuringSession;\n"],
  ];
  it.each(allowed)('accepts an allowed import in %s: %s', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).toBe(0);
  });
});
