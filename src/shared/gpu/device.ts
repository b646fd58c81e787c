// The one device request of the lab: every WebGPU device (Dawn in main and tests, navigator.gpu in
// the renderer's preview) is made here from an adapter, with the limits the shaders need.
// Input: a GPUAdapter. Output: a GPUDevice. Invariant: one set of raised limits everywhere (storage
// buffers per stage, binding and buffer sizes for large batches, workgroup storage), each at the
// adapter's maximum, so a kernel that runs in a test runs the same in main and in the preview.

/** The limits requested above the defaults, at this adapter's maximum. */
export function computeLimits(adapter: GPUAdapter): Record<string, number> {
  return {
    maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
    maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
  };
}

/** A device of `adapter` for the lab's compute shaders. */
export function requestComputeDevice(adapter: GPUAdapter): Promise<GPUDevice> {
  return adapter.requestDevice({ requiredLimits: computeLimits(adapter) });
}
