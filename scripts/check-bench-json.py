#!/usr/bin/env python3
"""Checks `vigor-bench --json` output: well formed, both editors, every
figure positive. Not a speed gate."""
import json
import sys

with open(sys.argv[1]) as f:
    data = json.load(f)
problems = []
for editor in ("vim", "nvim"):
    e = data.get(editor)
    if not isinstance(e, dict):
        problems.append(f"no {editor!r} object")
        continue
    parts = {"": e, "baseline.": e.get("baseline") or {}}
    if "baseline" not in e:
        problems.append(f"{editor}: no baseline")
    for prefix, obj in parts.items():
        for kind in ("call", "batch"):
            fig = obj.get(kind)
            if not isinstance(fig, dict):
                problems.append(f"{editor}.{prefix}{kind}: missing")
                continue
            for key in ("opms", "opms_stderr"):
                v = fig.get(key)
                if not isinstance(v, (int, float)) or v <= 0:
                    problems.append(f"{editor}.{prefix}{kind}.{key} = {v!r}, want a positive number")
if problems:
    print("vigor-bench --json: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print("vigor-bench --json: well formed, every figure positive: "
      + ", ".join(f"{ed} call {data[ed]['call']['opms']:.1f} batch {data[ed]['batch']['opms']:.1f} ops/ms" for ed in ("vim", "nvim")))
