#!/usr/bin/env python3
"""Regenerates the tool output shown in README.md, so that every number there
comes from the tool. A block looks like

    <!-- gmem-analyze ARGS -->
    ```text
    (output of build/bin/gmem-analyze ARGS, run from the repository root)
    ```
    <!-- /gmem-analyze -->

Usage: scripts/update_readme.py [--check] [BUILD_DIR]   (default BUILD_DIR: build)
--check exits 1 when README.md differs from what the tool prints now.
"""
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- gmem-analyze (.*?) -->\n```text\n)(.*?)(```\n<!-- /gmem-analyze -->)",
                   re.S)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    tool = (ROOT / (args[0] if args else "build") / "bin" / "gmem-analyze").resolve()
    readme = ROOT / "README.md"
    text = readme.read_text()

    def run(m):
        out = subprocess.run([str(tool)] + shlex.split(m.group(2)), cwd=ROOT,
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"gmem-analyze {m.group(2)} failed:\n{out.stderr}")
        return m.group(1) + out.stdout + m.group(4)

    new = BLOCK.sub(run, text)
    if check:
        if new != text:
            print("README.md is stale: run scripts/update_readme.py")
            sys.exit(1)
        print("README.md matches the tool's output")
        return
    readme.write_text(new)


if __name__ == "__main__":
    main()
