// The spec flag values in src/shared/gpu/flags.ts equal the implementation's globals.
import { describe, expect, it } from 'vitest';
import { BufferUsage, MapMode, ShaderStage } from '../../../src/shared/gpu/flags';
import { gpuDevice } from '../../helpers/gpu';
import { skipWithout } from '../../helpers/optional';

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('WebGPU flags', () => {
  it('equal GPUBufferUsage, GPUShaderStage and GPUMapMode', () => {
    for (const [k, v] of Object.entries(BufferUsage)) expect(v).toBe(GPUBufferUsage[k as keyof typeof BufferUsage]);
    expect(ShaderStage.COMPUTE).toBe(GPUShaderStage.COMPUTE);
    expect(MapMode.READ).toBe(GPUMapMode.READ);
  });
});
