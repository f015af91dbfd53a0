#!/usr/bin/env bash
# Rehearse the GPU run here, without a GPU: copy the working tree as a device run would carry it
# (tracked and untracked-not-ignored files, plus .gpu-kit/) into a temporary folder and run
# bench/gpu/run.sh there with SwiftShader's Vulkan driver, quick sizes, and a PATH that holds no
# Node (so only the kit's can run). Run bench/gpu/kit.sh first.
#   bash bench/gpu/rehearse.sh [run.sh flags]      (OUT defaults to that folder's bench/gpu/out)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f .gpu-kit/SHA256SUMS ] || { echo "rehearse: run bench/gpu/kit.sh first" >&2; exit 2; }
R=$(mktemp -d /tmp/murmur-rehearsal.XXXXXX)
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -C "$R" -xf -
cp -r .gpu-kit "$R/"
echo "rehearse: carried $(du -sh "$R" | cut -f1) in $R"
bin="$R/.bin"
mkdir -p "$bin"
for t in bash sh python3 ldconfig mktemp date grep rm mkdir dirname cat sleep; do
  p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$t") && ln -s "$p" "$bin/$t"
done
[ -e "$bin/node" ] && { echo "rehearse: node on the PATH" >&2; exit 2; }
env -i PATH="$bin" HOME="$R" OUT="${OUT:-$R/bench/gpu/out}" \
  VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
  bash "$R/bench/gpu/run.sh" --allow-fallback --quick "$@"
