#!/usr/bin/env python3
"""gmem-analyze installed with `cmake --install`, away from its trees.

Usage: install_test.py GMEM_BUILD_DIR SOURCE_DIR

Installs the build into a temporary prefix, copies examples/transpose.cu to
a folder of its own, and runs the README's first command with the installed
binary: it must read its stand-in headers and its recording runtime from
the prefix (--version says which it uses), not from the source or build
tree, and print the seeds' launch of naiveGmem. find_package(gmem 0.1)
against the prefix must succeed, and find_package(gmem 0.2) fail. The
Debian package CPack builds, unpacked, must run the same command.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = tempfile.mkdtemp(prefix="gmem_install_")
prefix = os.path.join(work, "prefix")


def run(cmd, cwd, ok=(0,)):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit("FAILED (exit %d): %s\n%s%s" % (p.returncode, " ".join(cmd),
                                                p.stdout, p.stderr))
    return p


run(["cmake", "--install", build, "--prefix", prefix], work)
exe = os.path.join(prefix, "bin", "gmem-analyze")
version = run([exe, "--version"], work).stdout
lines = dict(l.strip().split(": ", 1) for l in version.splitlines()[1:])
assert lines["headers"] == os.path.join(prefix, "share/gmem/cuda_stub"), version
runtime = lines["recording runtime"]
assert runtime in ("none", os.path.join(prefix, "lib/gmem-record")), version
for path in (lines["headers"], runtime):
    assert not path.startswith((src + "/", build + "/")), path

example = os.path.join(work, "example")
os.makedirs(example)
shutil.copy(os.path.join(src, "examples", "transpose.cu"), example)
out = run([exe, "transpose.cu", "--block", "32,16"], example).stdout
assert "naiveGmem<<<(128,256,1), (32,16,1)>>>" in out, out
assert "gld_transactions_per_request" in out, out
# The SARIF log links to the installed pages.
sarif = json.loads(run([exe, "transpose.cu", "--block", "32,16", "--format",
                        "sarif"], example, ok=(0, 1)).stdout)
driver = sarif["runs"][0]["tool"]["driver"]
docs = os.path.join(prefix, "share/doc/gmem")
assert driver["informationUri"] == "file://" + docs + "/README.md", driver
for rule in driver["rules"]:
    page = rule["helpUri"][len("file://"):]
    assert page.startswith(docs + "/docs/checks/") and os.path.isfile(page), page

project = os.path.join(work, "project")
os.makedirs(project)
for want, ok in (("0.1", 0), ("0.2", 1)):
    with open(os.path.join(project, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.20)\n"
                "project(use_gmem LANGUAGES NONE)\n"
                "find_package(gmem %s REQUIRED)\n" % want)
    p = subprocess.run(["cmake", "-S", project, "-B",
                        os.path.join(project, "b" + want),
                        "-DCMAKE_PREFIX_PATH=" + prefix],
                       capture_output=True, text=True)
    assert (p.returncode == 0) == (ok == 0), (want, p.stdout, p.stderr)

# The Debian package (CPack) holds the same installation: unpacked, its
# gmem-analyze runs from it.
if shutil.which("cpack") and shutil.which("dpkg-deb"):
    debs = os.path.join(work, "debs")
    run(["cpack", "-G", "DEB", "-B", debs, "--config",
         os.path.join(build, "CPackConfig.cmake")], work)
    (deb,) = [f for f in os.listdir(debs) if f.endswith(".deb")]
    info = run(["dpkg-deb", "--info", os.path.join(debs, deb)], work).stdout
    assert "Depends: libclang-cpp19, libllvm19" in info, info
    root = os.path.join(work, "deb-root")
    run(["dpkg-deb", "-x", os.path.join(debs, deb), root], work)
    exe = os.path.join(root, "usr", "bin", "gmem-analyze")
    version = run([exe, "--version"], work).stdout
    assert "headers: " + os.path.join(root, "usr/share/gmem/cuda_stub") in version, version
    out = run([exe, "transpose.cu", "--block", "32,16"], example).stdout
    assert "naiveGmem<<<(128,256,1), (32,16,1)>>>" in out, out
    print("the Debian package", deb, "runs unpacked")
shutil.rmtree(work)
print("installed gmem-analyze runs from", prefix)
