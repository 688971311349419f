#!/usr/bin/env python3
"""The gate's SARIF against the SARIF 2.1.0 JSON schema (tests/data).

Usage: check_sarif.py GMEM_ANALYZE SOURCE_DIR

Runs the gate over every rule's verify file and the printed
transposeSmemUnrollPad (block 32x16), validates the log against the schema
with jsonschema (Debian's python3-jsonschema), and checks what code-scanning
services rely on: every result names a rule of the run (ruleId and
ruleIndex agree), rules carry descriptions, help and a helpUri naming
their page in docs/checks, locations are relative
to the checkout, and every rule fires at least once.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("jsonschema is missing: install python3-jsonschema "
             "(scripts/setup.sh does)")

exe, src = sys.argv[1], sys.argv[2]
rules_dir = os.path.join(src, "tests", "data", "rules")
files = sorted("tests/data/rules/" + f for f in os.listdir(rules_dir)
               if f.endswith(".cu"))
run = subprocess.run([exe, "--format", "sarif", *files], cwd=src,
                     capture_output=True, text=True)
assert run.returncode == 1, (run.returncode, run.stderr)  # Errors present.
log = json.loads(run.stdout)
printed = subprocess.run([exe, "examples/transpose_seed_printed.cu", "--block",
                          "32,16", "--format", "sarif"], cwd=src,
                         capture_output=True, text=True)
assert printed.returncode == 1, printed.stderr

with open(os.path.join(src, "tests", "data", "sarif-schema-2.1.0.json")) as f:
    schema = json.load(f)
for doc in (log, json.loads(printed.stdout)):
    jsonschema.Draft7Validator(schema).validate(doc)
    assert doc["version"] == "2.1.0"
    (r,) = doc["runs"]
    rules = r["tool"]["driver"]["rules"]
    ids = [x["id"] for x in rules]
    assert len(ids) == len(set(ids)), ids
    # The tool's page and each rule's page exist (this build has no
    # GMEM_DOCS_URL: file:// links into the source tree).
    driver = r["tool"]["driver"]
    assert driver["informationUri"] == "file://" + os.path.join(src, "README.md")
    for x in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            assert x[key]["text"], (x["id"], key)
        page = os.path.join(src, "docs", "checks", x["id"] + ".md")
        assert x["helpUri"] == "file://" + page, x["helpUri"]
        with open(page) as f:
            assert f.readline() == "# %s\n" % x["id"], page
    assert r["results"], "no results"
    for res in r["results"]:
        assert res["ruleId"] in ids, res["ruleId"]
        assert ids[res["ruleIndex"]] == res["ruleId"], res
        assert res["level"] in ("error", "warning", "note"), res["level"]
        loc = res["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        assert not uri.startswith(("file:", "/")), uri
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert loc["region"]["startLine"] >= 1
        assert "kernel" in res["properties"], res["properties"]
        fp = res["partialFingerprints"]["gmemFinding/v1"]
        assert len(fp) == 32, fp

fired = {res["ruleId"] for res in log["runs"][0]["results"]}
want = {"gmem-uncoalesced-load", "gmem-uncoalesced-store",
        "gmem-misaligned-access", "gmem-bank-conflict",
        "gmem-shared-out-of-bounds", "gmem-data-dependent-access",
        "gmem-partial-warp"}
assert want <= fired, want - fired
# The printed kernel's two out-of-bounds loads, at lines 73 and 78.
oob = [res for res in json.loads(printed.stdout)["runs"][0]["results"]
       if res["ruleId"] == "gmem-shared-out-of-bounds"]
lines = sorted(res["locations"][0]["physicalLocation"]["region"]["startLine"]
               for res in oob)
assert lines == [73, 78], lines
# Regions span the access as written: uncoalesced_load.cu line 8, column
# 12, `in[i * n]`, 9 characters (SARIF's endColumn is exclusive).
(load,) = [res for res in log["runs"][0]["results"]
           if res["ruleId"] == "gmem-uncoalesced-load" and
           res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
           .endswith("uncoalesced_load.cu")]
region = load["locations"][0]["physicalLocation"]["region"]
assert (region["startLine"], region["startColumn"]) == (8, 12), region
assert region.get("endLine", 8) == 8 and region["endColumn"] == 21, region
assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]
# Fingerprints (rule, file, kernel, access shape; no line number) tell the
# findings apart, and the same files analysed again give the same ones.
fps = [res["partialFingerprints"]["gmemFinding/v1"]
       for res in log["runs"][0]["results"]]
assert len(set(fps)) == len(fps), fps
again = json.loads(subprocess.run([exe, "--format", "sarif", *files], cwd=src,
                                  capture_output=True, text=True).stdout)
assert fps == [res["partialFingerprints"]["gmemFinding/v1"]
               for res in again["runs"][0]["results"]]

# Bad input exits 2 and still writes the SARIF asked for: no results, the
# error as the invocation's notification.
bad_path = os.path.join(tempfile.mkdtemp(prefix="gmem_sarif_"), "bad.sarif")
bad = subprocess.run([exe, files[0], "--arch", "sm_1", "--sarif", bad_path],
                     cwd=src, capture_output=True, text=True)
assert bad.returncode == 2, (bad.returncode, bad.stderr)
with open(bad_path) as f:
    doc = json.load(f)
jsonschema.Draft7Validator(schema).validate(doc)
(inv,) = doc["runs"][0]["invocations"]
assert inv["executionSuccessful"] is False, inv
(note,) = inv["toolExecutionNotifications"]
assert note["level"] == "error" and "unknown --arch 'sm_1'" in \
    note["message"]["text"], note
assert doc["runs"][0]["results"] == [], doc["runs"][0]["results"]
print("SARIF valid:", len(log["runs"][0]["results"]), "results,",
      len(fired), "rules; exit 2 writes its SARIF")
