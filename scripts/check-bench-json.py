#!/usr/bin/env python3
"""Checks `vigor-bench --json` output: well formed, both editors, each with
its limit lines (the one of Vigor's protocol named) and Vigor's parallel
workload, every figure and ratio positive. Not a speed gate."""
import json
import sys

LIMITS = {"vim": ("callback", "command"), "nvim": ("jobstart", "embed")}

with open(sys.argv[1]) as f:
    data = json.load(f)
problems = []


def positive(where, obj, keys):
    for key in keys:
        v = obj.get(key) if isinstance(obj, dict) else None
        if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0:
            problems.append(f"{where}.{key} = {v!r}, want a positive number")


for editor, names in LIMITS.items():
    e = data.get(editor)
    if not isinstance(e, dict):
        problems.append(f"no {editor!r} object")
        continue
    if not isinstance(e.get("cpus"), str):
        problems.append(f"{editor}.cpus = {e.get('cpus')!r}, want a string")
    limits = e.get("limits")
    if not isinstance(limits, dict):
        problems.append(f"{editor}: no limits")
        limits = {}
    parts = {editor: e}
    for name in names:
        if name not in limits:
            problems.append(f"{editor}: no limit {name!r}")
            continue
        parts[f"{editor}.limits.{name}"] = limits[name]
        positive(f"{editor}.limits.{name}.ratio", limits[name].get("ratio"), ("call", "batch"))
    if e.get("limit") != names[0] or not limits.get(names[0], {}).get("same_protocol"):
        problems.append(f"{editor}.limit = {e.get('limit')!r}, want {names[0]!r} (same_protocol)")
    positive(f"{editor}.ratio", e.get("ratio"), ("call", "batch"))
    positive(f"{editor}.parallel", e.get("parallel"), ("opms", "opms_stderr"))
    positive(f"{editor}.parallel_ratio", e.get("parallel_ratio"), ("call", "batch"))
    for where, obj in parts.items():
        for kind in ("call", "batch"):
            positive(f"{where}.{kind}", obj.get(kind), ("opms", "opms_stderr"))
if problems:
    print("vigor-bench --json: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print("vigor-bench --json: well formed, every figure positive: " + ", ".join(
    f"{ed} call {data[ed]['call']['opms']:.1f} batch {data[ed]['batch']['opms']:.1f} ops/ms"
    f" (vigor/{data[ed]['limit']} {data[ed]['ratio']['call']:.2f} {data[ed]['ratio']['batch']:.2f})"
    for ed in LIMITS))
