#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks what `flakesweep report --dry-run` printed: the text a person
# reads (equal to GOLDEN when one is given), then each GraphQL request,
# "#N. Name (when)", its document, "# variables" and their JSON, in the
# order NAMES gives. With --post URL, each request is sent to the local
# stand-in, which logs whether the document is valid against GitHub's
# schema. The token (STANDIN_TOKEN) must appear nowhere.
# Usage: dry-requests.py OUT GOLDEN|- "NAME NAME..." [--post URL]
import json, os, re, sys, urllib.request

out = open(sys.argv[1], encoding="utf-8").read()
golden, names = sys.argv[2], sys.argv[3].split()
mark = "\n-- the GraphQL requests, as they would be POSTed to "
if mark not in out:
    sys.exit(f"{sys.argv[1]}: no requests after the text")
text, requests = out.split(mark, 1)
if golden != "-" and text != open(golden, encoding="utf-8").read():
    sys.exit(f"{sys.argv[1]}: the text before the requests differs from {golden}")
token = os.environ.get("STANDIN_TOKEN", "")
if token and token in out:
    sys.exit(f"{sys.argv[1]}: the token is shown")
if "Authorization: bearer ***" not in requests.split("\n", 1)[0]:
    sys.exit(f"{sys.argv[1]}: the first line does not show the header masked")
parts = re.split(r"^#(\d+)\. (\w+)(?: \(([^)\n]*)\))?\n", requests, flags=re.M)
got = []
for i in range(1, len(parts), 4):
    n, name, body = int(parts[i]), parts[i + 1], parts[i + 3]
    if n != len(got) + 1:
        sys.exit(f"request {name} is numbered {n}")
    document, variables = body.split("# variables\n", 1)
    variables = json.loads(variables)
    if not document.lstrip().startswith(("query " + name, "mutation " + name)):
        sys.exit(f"request {n} is named {name} but its document is not")
    got.append((name, document, variables))
if [g[0] for g in got] != names:
    sys.exit(f"requests: {' '.join(g[0] for g in got)}; want: {' '.join(names)}")
if "--post" in sys.argv:
    url = sys.argv[sys.argv.index("--post") + 1]
    for name, document, variables in got:
        req = urllib.request.Request(url, json.dumps({"query": document, "variables": variables}).encode(),
                                     {"Content-Type": "application/json", "User-Agent": "flakesweep/0.1 check",
                                      "Authorization": "bearer " + token})
        try:
            urllib.request.urlopen(req, timeout=10).read()
        except urllib.error.HTTPError:
            pass
def short(v):
    if isinstance(v, dict):
        return {k: short(x) for k, x in v.items()}
    return v[:60] + "..." if isinstance(v, str) and len(v) > 60 else v
for name, _, variables in got:
    print(name, json.dumps(short(variables), sort_keys=True))
