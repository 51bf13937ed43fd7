package service

import (
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/scan"
)

// withholdLives makes read results fit to store: in each found model of
// rs, the live values at the places where the declared properties hold a
// secret (a secretsmanager or ssm-secure dynamic reference, a NoEcho
// parameter) are replaced by drift.Redacted, as the reports write them;
// then every plaintext found so is scrubbed wherever else it appears in the
// batch, models and reasons. It returns how many values it withheld.
//
// The classifier never compares a secret, so withholding changes no
// finding: read back (readBack), a withheld value is a secret Unknown.
func withholdLives(rs []scan.Resource, lives liveState) int {
	var secrets []string
	n := 0
	for _, r := range rs {
		res, ok := lives[r.LogicalID]
		if !ok || res.Status != live.Found || !drift.ContainsSecret(r.Declared) {
			continue
		}
		model, found := drift.Withhold(r.Declared, res.Model)
		res.Model = model
		lives[r.LogicalID] = res
		secrets = append(secrets, found...)
		n += len(found)
	}
	if len(secrets) == 0 {
		return n
	}
	for id, res := range lives {
		if res.Model != nil {
			v, k := drift.Scrub(res.Model, secrets)
			res.Model, _ = v.(map[string]any)
			n += k
		}
		if r := drift.ScrubString(res.Reason, secrets); r != res.Reason {
			res.Reason = r
			n++
		}
		lives[id] = res
	}
	return n
}

// readBack turns the values withholdLives withheld into secret Unknowns,
// so nothing downstream (Fn::GetAtt, the classifier) takes the marker for
// a real value.
func readBack(lives liveState) {
	for id, res := range lives {
		if res.Model != nil {
			res.Model, _ = drift.WithheldAsUnknown(res.Model).(map[string]any)
			lives[id] = res
		}
	}
}
