#!/usr/bin/env python3
"""Re-indents JSON files so that small objects and arrays stay on one line (for hand-edited models)."""
import json, sys

def fmt(v, indent=0, width=100):
    one = json.dumps(v, ensure_ascii=False)
    if len(one) + indent <= width or not isinstance(v, (dict, list)) or not v:
        return one
    pad = "  " * (indent // 2 + 1)
    end = "  " * (indent // 2)
    if isinstance(v, dict):
        items = [f'{pad}{json.dumps(k)}: {fmt(x, indent + 2, width)}' for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    items = [pad + fmt(x, indent + 2, width) for x in v]
    return "[\n" + ",\n".join(items) + "\n" + end + "]"

for path in sys.argv[1:]:
    with open(path) as f:
        data = json.load(f)
    with open(path, "w") as f:
        f.write(fmt(data) + "\n")
