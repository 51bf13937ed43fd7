#!/bin/sh
# gen-regions.sh writes internal/region/partitions.json from botocore's
# endpoints data (the partitions AWS publishes: each one's region-name
# pattern and its known regions), so region.Check validates a region name
# against AWS's own data, never a hand list; and each partition's global
# services (isRegionalized false) with the region their one endpoint signs
# for, which is where CloudTrail records their events (region.Home).
# Re-run after a botocore update.
set -eu
cd "$(dirname "$0")/.."
python3 - <<'PY'
import json, os, botocore
src = os.path.join(os.path.dirname(botocore.__file__), "data", "endpoints.json")
data = json.load(open(src))
out = {"source": "botocore " + botocore.__version__ + " data/endpoints.json", "partitions": []}
for p in data["partitions"]:
    globals_ = {}
    for name, svc in p["services"].items():
        if svc.get("isRegionalized") is not False:
            continue
        ep = svc.get("endpoints", {}).get(svc.get("partitionEndpoint", ""), {})
        home = ep.get("credentialScope", {}).get("region")
        if home:
            globals_[name] = home
    out["partitions"].append({
        "partition": p["partition"],
        "regionRegex": p["regionRegex"],
        "regions": sorted(p["regions"]),
        "global": globals_,
    })
with open("internal/region/partitions.json", "w") as f:
    json.dump(out, f, indent=2, sort_keys=True)
    f.write("\n")
PY
