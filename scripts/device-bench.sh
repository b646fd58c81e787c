#!/usr/bin/env bash
# The one prepared device check of issue #28 item 6: the hardware-GPU figures (1.5M SH3 at
# 512x512, the 8-view grade, a search step, the 4M-key sort, a frame after a one-Gaussian edit)
# recorded with the adapter's name, the machine and the load. Run from the repository root on a
# machine with a GPU: scripts/device-bench.sh [OUT_DIR] (default $OUT, else test-results/device).
# Writes OUT_DIR/hardware.md (the table for docs/PERFORMANCE.md), OUT_DIR/hardware.json and
# OUT_DIR/adapter.txt (nvidia-smi and Vulkan's view of the device, where those tools exist).
# Exits non-zero when no hardware adapter is found (the figures would be SwiftShader's).
set -euo pipefail
out="${1:-${OUT:-test-results/device}}"
mkdir -p "$out"
{
  date -u
  uptime
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv || echo "nvidia-smi: not here"
  command -v vulkaninfo >/dev/null && vulkaninfo --summary 2>/dev/null | grep -E "deviceName|driverName|apiVersion" || echo "vulkaninfo: not here"
} > "$out/adapter.txt" 2>&1
path=$(node --import tsx -e "import('./src/main/gpu/device.ts').then(async (m) => { const g = await m.acquireGpu(); console.log(g.status.path + ': ' + g.status.summary); process.exit(0); })")
echo "WebGPU: $path" | tee -a "$out/adapter.txt"
case "$path" in
  hardware*) ;;
  *) echo "no hardware adapter: not measuring (the figures would not be a GPU's)" >&2; exit 2 ;;
esac
node --import tsx test/bench/hardware.bench.ts --json "$out/hardware.json" --reps "${REPS:-10}" | tee "$out/hardware.md"
