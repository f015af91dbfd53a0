#!/usr/bin/env python3
"""Unpack the GPU benchmark kit (bench/gpu/kit.sh) into a folder, with nothing but python3's
standard library (the GPU machine may have no tar or xz):

    python3 bench/gpu/unpack.py .gpu-kit DEST

DEST/node/bin/node, DEST/node_modules/{murmur-flock,webgpu}, DEST/vulkan/libvulkan.so.1.
Checks every file against the kit's SHA256SUMS first; exits 2 on any mismatch.
"""
import glob
import hashlib
import lzma
import os
import shutil
import sys
import tarfile


def extract(tar, dest):
    try:
        tar.extractall(dest, filter="data")
    except TypeError:  # Python before the extraction filters
        tar.extractall(dest)


def main(kit, dest):
    with open(os.path.join(kit, "SHA256SUMS")) as f:
        sums = [line.split() for line in f if line.strip()]
    for digest, name in sums:
        h = hashlib.sha256()
        with open(os.path.join(kit, name), "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        if h.hexdigest() != digest:
            print(f"unpack: {name} does not match SHA256SUMS", file=sys.stderr)
            return 2
    os.makedirs(os.path.join(dest, "node", "bin"), exist_ok=True)
    node = os.path.join(dest, "node", "bin", "node")
    (node_xz,) = glob.glob(os.path.join(kit, "node-v*-linux-x64.xz"))
    with lzma.open(node_xz) as src, open(node, "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
    os.chmod(node, 0o755)
    modules = os.path.join(dest, "node_modules")
    os.makedirs(modules, exist_ok=True)
    with tarfile.open(os.path.join(kit, "webgpu.tar.xz"), "r:xz") as t:
        extract(t, modules)
    (pkg,) = glob.glob(os.path.join(kit, "murmur-flock-*.tgz"))
    with tarfile.open(pkg, "r:gz") as t:
        extract(t, dest)
    os.rename(os.path.join(dest, "package"), os.path.join(modules, "murmur-flock"))
    with tarfile.open(os.path.join(kit, "vulkan.tar.xz"), "r:xz") as t:
        extract(t, dest)
    print(f"unpacked {os.path.basename(node_xz)}, webgpu, {os.path.basename(pkg)}, libvulkan into {dest}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(sys.argv[1], sys.argv[2]))
