// Helper process of gpu-process.test.ts: owns a GPU grader child, prints its pid, renders once,
// then either waits to be killed ('SIGKILL') or lets its event loop end without closing the
// backend ('exit'), which must not leave the child running.
import { GpuProcessBackend } from '../../../src/main/grader/gpu-process';
import { loadShaders } from '../../../src/main/gpu/shaders';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { emptySplats } from '../../../src/shared/scene/splats';
import { existsSync } from 'node:fs';
import { SWIFTSHADER_ICDS } from '../../../src/main/gpu/device';

// The child uses the adapter the tests use (test/helpers/gpu.ts).
process.env.VK_ICD_FILENAMES ??= SWIFTSHADER_ICDS.find((f) => existsSync(f));
const backend = await GpuProcessBackend.start({ lpips: null, shaders: loadShaders() });
const { pid } = await backend.describe();
const scene = emptySplats(1);
scene.opacities[0] = 0.5;
scene.scales.fill(0.1);
await backend.render(scene, [orbitCamera({ azimuth: 0, elevation: 10, width: 16, height: 16 })]);
process.stdout.write(`child ${pid}\n`);
if (process.argv[2] === 'SIGKILL') setInterval(() => undefined, 1000);
