#!/usr/bin/env bash
# gen-notactions.sh — rewrites internal/schema/notactions.txt: the
# permissions the embedded registry snapshot's handlers list that are not
# IAM actions (misspellings, retired names, internal names) by the action
# catalogue cfn-lint ships (its W3037 data). Policies realdrift synthesizes
# from handler permissions leave these out (schema.IAMAction), so the
# synthesized templates stay free of W3037 and of actions AWS would reject
# in a managed policy. Run it after regenerating the snapshot or upgrading
# cfn-lint; infra's TestCfnLint is the check that the file is current.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import gzip, json, os
import cfnlint
from importlib.metadata import version
cat = json.load(open(os.path.join(os.path.dirname(cfnlint.__file__), "data", "AdditionalSpecs", "Policies.json")))
known = {(svc.lower(), a.lower()) for svc, v in cat.items() for a in v.get("Actions", {})}
services = {svc.lower() for svc in cat}
snap = json.load(gzip.open("internal/schema/snapshot.json.gz"))["types"]
out = set()
for f in snap.values():
    for perms in (f.get("hp") or {}).values():
        for p in perms:
            svc, _, act = p.partition(":")
            if not p or "*" in p or "?" in p:
                continue  # a wildcard is no single action; callers decide
            if not act or (svc.lower(), act.lower()) not in known:
                out.add(p)
with open("internal/schema/notactions.txt", "w") as w:
    w.write("# Handler permissions of the embedded snapshot that are not IAM actions\n")
    w.write("# by cfn-lint %s's catalogue; written by scripts/gen-notactions.sh.\n" % version("cfn-lint"))
    for p in sorted(out):
        w.write(p + "\n")
print("notactions: %d of the snapshot's handler permissions are not IAM actions" % len(out))
PY
