#!/usr/bin/env bash
# The GPU benchmark on a bare Linux x86-64 machine with an NVIDIA GPU and its driver (no Node, no
# network; python3): unpack the kit (.gpu-kit/, made by bench/gpu/kit.sh) into a temporary
# folder, find the Vulkan loader and NVIDIA's Vulkan driver, then run bench/gpu/run-gpu.mjs with
# the kit's Node. Results go to $OUT (default bench/gpu/out/) as they arrive. See README.md here.
#   bash bench/gpu/run.sh [--allow-fallback] [--quick] [--budget-s S]
set -uo pipefail
cd "$(dirname "$0")/../.."
t0=$(date +%s)
OUT="${OUT:-$PWD/bench/gpu/out}"
mkdir -p "$OUT"
W=$(mktemp -d "${TMPDIR:-/tmp}/murmur-gpu.XXXXXX")
python3 bench/gpu/unpack.py .gpu-kit "$W" || exit 2
# the kit's loader only where the system has none
if ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1 '; then
  export LD_LIBRARY_PATH="$W/vulkan${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "run.sh: Vulkan loader from the kit ($W/vulkan)"
fi
# the driver's libraries where a container mounts them (the manifest names libGLX_nvidia.so.0)
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
# NVIDIA's Vulkan driver manifest, unless the caller named a driver (the rehearsal: SwiftShader)
if [ -z "${VK_ICD_FILENAMES:-}" ]; then
  for f in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd*.json \
    /etc/vulkan/icd.d/nvidia_icd*.json /usr/local/share/vulkan/icd.d/nvidia_icd*.json; do
    if [ -f "$f" ]; then
      export VK_ICD_FILENAMES="$f" VK_DRIVER_FILES="$f"
      break
    fi
  done
  echo "run.sh: Vulkan driver ${VK_ICD_FILENAMES:-not found (the loader searches its defaults)}"
fi
export XDG_RUNTIME_DIR="$W"
echo "run.sh: unpacked in $(($(date +%s) - t0)) s"
"$W/node/bin/node" bench/gpu/run-gpu.mjs --pkg "$W/node_modules/murmur-flock" --out "$OUT" "$@"
rc=$?
rm -rf "$W"
exit $rc
