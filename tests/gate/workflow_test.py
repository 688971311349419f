#!/usr/bin/env python3
"""Runs docs/gmem-gate-workflow.yml's steps on a small project, as GitHub
Actions would, so that the example workflow is known to work.

Usage: workflow_test.py GMEM_BUILD_DIR SOURCE_DIR

The project is tests/data/gate_project in a fresh git repository, with its
baseline recorded and committed as a user would. Each `run:` step runs in
bash -eo pipefail (Actions' shell) in the project, with the job's and the
step's env, ${{ }} expressions substituted, $GITHUB_OUTPUT read into the
step's outputs and $GITHUB_PATH added to PATH. The `uses:` steps are played
by this script: checkout (the project is already there), cache (a hit,
restored from `cmake --install` of GMEM_BUILD_DIR: gmem's own CI has just
built it; the miss branch, setup.sh and the same install, is what CI's
first step and install_prefix_e2e run), and upload-sarif (the file must
exist and pass the SARIF 2.1.0 schema). An action or expression it does not
know fails the test, so the workflow cannot drift away from it. GMEM_REPO
holds SOURCE_DIR's tracked files as they are, and GMEM_PREFIX is a temporary
folder.

Two pushes: the project as committed (every step succeeds), then with the
thread-index roles of its kernel swapped (the gate fails with the load's
regression, and the SARIF with that finding is still uploaded). Exit 77
(skipped) without nvcc, which CMake's CUDA language needs.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

from gate_project import swap_thread_roles

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
if not shutil.which("nvcc") and not os.path.exists("/usr/local/cuda/bin/nvcc"):
    print("SKIPPED: no CUDA toolkit (nvcc) for CMake's CUDA language")
    sys.exit(77)
with open(os.path.join(src, "docs", "gmem-gate-workflow.yml")) as f:
    workflow = yaml.safe_load(f)
with open(os.path.join(src, "tests", "data", "sarif-schema-2.1.0.json")) as f:
    schema = json.load(f)
work = tempfile.mkdtemp(prefix="gmem_workflow_")


def sh(cmd, cwd, env=None, ok=(0,)):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit("FAILED (exit %d): %s\n%s%s" % (p.returncode, cmd, p.stdout,
                                                p.stderr))
    return p


# gmem as the workflow fetches it: a repository it clones, whose main is
# the checkout's tracked files as they are, committed or not.
gmem_repo = os.path.join(work, "gmem.git")
sh(["git", "init", "-q", "--bare", "-b", "main", gmem_repo], work)
tree = (sh(["git", "stash", "create"], src).stdout.strip() or
        sh(["git", "rev-parse", "HEAD"], src).stdout.strip())
sh(["git", "push", "-q", gmem_repo, tree + ":refs/heads/main"], src)
# The cache the workflow restores: gmem installed from this build.
prefix = os.path.join(work, "gmem-prefix")
sh(["cmake", "--install", build, "--prefix", prefix], work)

# The user's project, its baseline recorded once and committed.
project = os.path.join(work, "project")
shutil.copytree(os.path.join(src, "tests", "data", "gate_project"), project)
git = ["git", "-c", "user.name=ci", "-c", "user.email=ci@example.org"]
sh(git + ["init", "-q"], project)
sh(["cmake", "-S", ".", "-B", "b", "-DCMAKE_PREFIX_PATH=" + prefix], project)
sh(["cmake", "--build", "b", "--target", "gmem_gate_transpose_update_baseline"],
   project)
shutil.rmtree(os.path.join(project, "b"))
sh(git + ["add", "."], project)
sh(git + ["commit", "-qm", "baseline"], project)

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def evaluate(expr, ctx):
    """The expressions the workflow uses: context lookups, always(), and
    a comparison of a lookup with a quoted string."""
    if expr == "always()":
        return True
    m = re.fullmatch(r"(\S+)\s*(==|!=)\s*'([^']*)'", expr)
    if m:
        same = str(evaluate(m.group(1), ctx)) == m.group(3)
        return same if m.group(2) == "==" else not same
    value = ctx
    for part in expr.split("."):
        if not isinstance(value, dict) or part not in value:
            if isinstance(value, dict) and value.get("__open__"):
                return ""  # An output nobody set reads as empty.
            sys.exit("workflow_test: unknown expression '%s'" % expr)
        value = value[part]
    return value


def substitute(text, ctx):
    return EXPR.sub(lambda m: str(evaluate(m.group(1), ctx)), str(text))


def run_job(label):
    """Runs the job's steps; returns (job succeeded, uploaded SARIF)."""
    (job,) = workflow["jobs"].values()
    runner_temp = tempfile.mkdtemp(prefix="runner_temp_", dir=work)
    path_file = os.path.join(runner_temp, "path")
    open(path_file, "w").close()
    ctx = {"vars": {"GMEM_REPO": "file://" + gmem_repo},
           "runner": {"os": "Linux", "temp": runner_temp},
           "steps": {}, "env": {}}
    env = dict(os.environ)
    if not shutil.which("nvcc"):  # What the toolkit step's $GITHUB_PATH adds.
        env["PATH"] = "/usr/local/cuda/bin" + os.pathsep + env["PATH"]
    env.update(RUNNER_TEMP=runner_temp, GITHUB_WORKSPACE=project,
               GITHUB_PATH=path_file, CI="true")
    for k, v in job.get("env", {}).items():
        env[k] = substitute(v, ctx)
    # The cache's path is a temporary folder, not the workflow's /opt/gmem.
    env["GMEM_PREFIX"] = os.path.join(work, label + "-opt-gmem")
    ctx["env"] = env
    shutil.rmtree(os.path.join(project, "build"), ignore_errors=True)
    failed, sarif = False, None
    for step in job["steps"]:
        name = step.get("name", step.get("uses"))
        cond = step.get("if", "success()")
        go = (not failed) if cond == "success()" else evaluate(
            EXPR.sub(r"\1", cond), ctx)
        outputs = {"__open__": True}
        if step.get("id"):
            ctx["steps"][step["id"]] = {"outputs": outputs}
        if not go:
            print("[%s] skipped: %s" % (label, name))
            continue
        step_env = dict(env)
        for k, v in step.get("env", {}).items():
            step_env[k] = substitute(v, ctx)
        with open(path_file) as f:
            extra = [l.strip() for l in f if l.strip()]
        step_env["PATH"] = os.pathsep.join(extra[::-1] + [env["PATH"]])
        uses = step.get("uses")
        start = time.time()
        if "run" in step:
            out_file = os.path.join(runner_temp, "output")
            open(out_file, "w").close()
            step_env["GITHUB_OUTPUT"] = out_file
            p = subprocess.run(["bash", "--noprofile", "--norc", "-eo",
                                "pipefail", "-c", substitute(step["run"], ctx)],
                               cwd=project, env=step_env, capture_output=True,
                               text=True)
            with open(out_file) as f:
                for line in f:
                    if "=" in line:
                        k, v = line.rstrip("\n").split("=", 1)
                        outputs[k] = v
            print("[%s] %s: exit %d (%.0f s)" % (label, name, p.returncode,
                                                 time.time() - start))
            if p.returncode:
                failed = True
                print(p.stdout[-3000:] + p.stderr[-3000:])
        elif uses.startswith("actions/checkout@"):
            pass  # The project is the working folder.
        elif uses.startswith("actions/cache@"):
            path = substitute(step["with"]["path"], ctx)
            key = substitute(step["with"]["key"], ctx)
            assert re.fullmatch(r"gmem-[\w-]+-[0-9a-f]{40}", key), key
            shutil.copytree(prefix, path, symlinks=True)
            outputs["cache-hit"] = "true"
            print("[%s] %s: restored %s" % (label, name, key))
        elif uses.startswith("github/codeql-action/upload-sarif@"):
            file = os.path.join(project, substitute(step["with"]["sarif_file"],
                                                    ctx))
            with open(file) as f:
                sarif = json.load(f)
            import jsonschema
            jsonschema.Draft7Validator(schema).validate(sarif)
            print("[%s] %s: %d results" % (label, name,
                                           len(sarif["runs"][0]["results"])))
        else:
            sys.exit("workflow_test: no stand-in for the action " + uses)
    return not failed, sarif


try:
    import jsonschema  # noqa: F401 (Debian's python3-jsonschema)
except ImportError:
    sys.exit("jsonschema is missing: install python3-jsonschema "
             "(scripts/setup.sh does)")

ok, sarif = run_job("clean")
assert ok, "the workflow failed on the committed project"
rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
assert "gmem-baseline-regression" not in rules, rules

source = os.path.join(project, "transpose.cu")
swap_thread_roles(source)
sh(git + ["commit", "-qam", "swap the thread roles"], project)
ok, sarif = run_job("regression")
assert not ok, "the gate passed a regression"
found = [r for r in sarif["runs"][0]["results"]
         if r["ruleId"] == "gmem-baseline-regression"]
assert found, sarif["runs"][0]["results"]
region = found[0]["locations"][0]["physicalLocation"]
assert region["artifactLocation"]["uri"].endswith("transpose.cu"), region
assert region["region"]["startLine"] == 8, region
shutil.rmtree(work)
print("the example workflow passes a clean push and fails a regression, "
      "uploading its SARIF both times")
