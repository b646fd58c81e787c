// WebGPU flag values from the specification (GPUBufferUsage, GPUShaderStage, GPUMapMode).
// Shared code uses these instead of the globals so that it can be imported before a WebGPU
// implementation (Dawn in Node, navigator.gpu in the browser) has installed those globals.
// Invariant: values equal the spec's constants (checked in test/shared/gpu/flags.test.ts).

export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
  INDIRECT: 0x0100,
} as const;

export const ShaderStage = { COMPUTE: 0x4 } as const;

export const MapMode = { READ: 0x0001 } as const;
