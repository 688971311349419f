#!/usr/bin/env python3
"""Regenerates the tool output shown in README.md and in the rules' pages
(docs/checks/*.md, which SARIF's helpUri links to), so that every number
there comes from the tool. A block looks like

    <!-- gmem-analyze ARGS -->
    ```text
    (output of build/bin/gmem-analyze ARGS, run from the repository root)
    ```
    <!-- /gmem-analyze -->

Usage: scripts/update_readme.py [--check] [BUILD_DIR]   (default BUILD_DIR: build)
--check exits 1 when a page differs from what the tool prints now, or a
rule that --list-checks names has no page.
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
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs" / "checks").glob("*.md"))

    def run(m):
        out = subprocess.run([str(tool)] + shlex.split(m.group(2)), cwd=ROOT,
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"gmem-analyze {m.group(2)} failed:\n{out.stderr}")
        return m.group(1) + out.stdout + m.group(4)

    stale = []
    for page in pages:
        text = page.read_text()
        new = BLOCK.sub(run, text)
        if new == text:
            continue
        if check:
            stale.append(str(page.relative_to(ROOT)))
        else:
            page.write_text(new)
    # Every rule has the page its SARIF helpUri names.
    listed = subprocess.run([str(tool), "--list-checks"], cwd=ROOT,
                            capture_output=True, text=True).stdout
    rules = re.findall(r"^(gmem-[a-z-]+) \(", listed, re.M)
    missing = [r for r in rules if not (ROOT / "docs" / "checks" / f"{r}.md").exists()]
    if missing:
        sys.exit("no page in docs/checks for: " + ", ".join(missing))
    if stale:
        print("stale, run scripts/update_readme.py: " + ", ".join(stale))
        sys.exit(1)
    if check:
        print(f"README.md and {len(pages) - 1} rule pages match the tool's output")

if __name__ == "__main__":
    main()
