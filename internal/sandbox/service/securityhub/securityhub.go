package securityhub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// securityHubResource is what a call is authorized against, as AWS does:
// an import against the account's default product, a query or an update
// against its hub.
func securityHubResource(_ *world.State, c *wire.Call) string {
	if c.Action == "BatchImportFindings" {
		return "arn:aws:securityhub:" + c.Region + ":" + c.Account + ":product/" + c.Account + "/default"
	}
	return "arn:aws:securityhub:" + c.Region + ":" + c.Account + ":hub/default"
}

func securityHubRoute(r *http.Request) (string, map[string]string) {
	if r.Method == http.MethodPatch && strings.TrimSuffix(r.URL.Path, "/") == "/findings/batchupdate" {
		return "BatchUpdateFindings", map[string]string{}
	}
	if r.Method != http.MethodPost {
		return "", nil
	}
	switch strings.TrimSuffix(r.URL.Path, "/") {
	case "/findings/import":
		return "BatchImportFindings", map[string]string{}
	case "/findings":
		return "GetFindings", map[string]string{}
	}
	return "", nil
}

// hubFinding is one stored finding, as imported (JSON object).
type hubFinding map[string]any

func (f hubFinding) str(k string) string {
	s, _ := f[k].(string)
	return s
}

// asffRequired are the fields BatchImportFindings requires of a finding.
var asffRequired = []string{"SchemaVersion", "Id", "ProductArn", "GeneratorId", "AwsAccountId", "CreatedAt", "UpdatedAt", "Title", "Description"}

func (h *Findings) securityHubImport(st *world.State, c *wire.Call) (any, error) {
	var in struct{ Findings []hubFinding }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if in.Findings == nil {
		return nil, wire.Errf(400, "InvalidInputException", "Findings is required")
	}
	if len(in.Findings) > 100 {
		return nil, wire.Errf(400, "InvalidInputException", "Findings: at most 100 findings per request, got %d", len(in.Findings))
	}
	product := "arn:aws:securityhub:" + c.Region + ":" + c.Account + ":product/" + c.Account + "/default"
	type failure struct{ Id, ErrorCode, ErrorMessage string }
	failed := []failure{}
	ok := 0
	st.Lock()
	defer st.Unlock()
	store := h.place(c.Account, c.Region)
	for i, f := range in.Findings {
		id := f.str("Id")
		if id == "" {
			id = fmt.Sprintf("finding %d", i)
		}
		if why := invalidFinding(f, product, c.Account); why != "" {
			failed = append(failed, failure{id, "InvalidInput", why})
			continue
		}
		key := f.str("ProductArn") + "|" + f.str("Id")
		if prev, seen := store[key]; seen {
			f["CreatedAt"] = prev["CreatedAt"]
			h.keepCustomerFields(c.Account, c.Region, key, prev, f)
		}
		store[key] = f
		ok++
	}
	return map[string]any{"FailedCount": len(failed), "SuccessCount": ok, "FailedFindings": failed}, nil
}

// customerFields are the fields BatchUpdateFindings sets: once a customer
// (an analyst) has set one, a provider's re-import no longer changes it.
var customerFields = []string{"Note", "Severity", "VerificationState", "Confidence", "Criticality", "Types", "UserDefinedFields", "Workflow", "RelatedFindings"}

// keepCustomerFields carries the fields a customer set on prev into the
// re-imported f, as Security Hub does; a workflow NOTIFIED or RESOLVED goes
// back to NEW when the finding comes back from ARCHIVED to ACTIVE.
func (h *Findings) keepCustomerFields(account, region, key string, prev, f hubFinding) {
	set := h.customer[account+"|"+region][key]
	for field := range set {
		if v, ok := prev[field]; ok {
			f[field] = v
		}
	}
	if !set["Workflow"] || prev.str("RecordState") != "ARCHIVED" || f.str("RecordState") == "ARCHIVED" {
		return
	}
	if w, _ := prev["Workflow"].(map[string]any); w["Status"] == "NOTIFIED" || w["Status"] == "RESOLVED" {
		f["Workflow"] = map[string]any{"Status": "NEW"}
		delete(set, "Workflow")
	}
}

func (h *Findings) securityHubUpdate(st *world.State, c *wire.Call) (any, error) {
	var in map[string]any
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	ids, _ := in["FindingIdentifiers"].([]any)
	if len(ids) == 0 || len(ids) > 100 {
		return nil, wire.Errf(400, "InvalidInputException", "FindingIdentifiers: between 1 and 100 identifiers")
	}
	type ident struct{ Id, ProductArn string }
	processed, unprocessed := []ident{}, []map[string]any{}
	st.Lock()
	defer st.Unlock()
	store := h.place(c.Account, c.Region)
	for _, raw := range ids {
		m, _ := raw.(map[string]any)
		id := ident{Id: hubFinding(m).str("Id"), ProductArn: hubFinding(m).str("ProductArn")}
		f, ok := store[id.ProductArn+"|"+id.Id]
		if !ok {
			unprocessed = append(unprocessed, map[string]any{"FindingIdentifier": id, "ErrorCode": "FindingNotFound", "ErrorMessage": "Finding Not Found"})
			continue
		}
		for _, field := range customerFields {
			v, given := in[field]
			if !given {
				continue
			}
			if field == "Severity" {
				sev, _ := f["Severity"].(map[string]any)
				upd, _ := v.(map[string]any)
				merged := map[string]any{}
				for k, x := range sev {
					merged[k] = x
				}
				for k, x := range upd {
					merged[k] = x
				}
				v = merged
			}
			f[field] = v
			h.markCustomer(c.Account, c.Region, id.ProductArn+"|"+id.Id, field)
		}
		processed = append(processed, id)
	}
	return map[string]any{"ProcessedFindings": processed, "UnprocessedFindings": unprocessed}, nil
}

// invalidFinding says why Security Hub refuses one finding, or "".
func invalidFinding(f hubFinding, product, account string) string {
	for _, k := range asffRequired {
		if f.str(k) == "" {
			return "Finding is missing required field " + k
		}
	}
	if _, ok := f["Severity"].(map[string]any); !ok {
		return "Finding is missing required field Severity"
	}
	if rs, ok := f["Resources"].([]any); !ok || len(rs) == 0 {
		return "Finding is missing required field Resources"
	}
	if t, ok := f["Types"].([]any); !ok || len(t) == 0 {
		return "Finding is missing required field Types"
	}
	if f.str("ProductArn") != product {
		return "ProductArn " + f.str("ProductArn") + " is not the account's default product " + product
	}
	if f.str("AwsAccountId") != account {
		return "AwsAccountId " + f.str("AwsAccountId") + " is not the calling account"
	}
	if st := f.str("RecordState"); st != "" && st != "ACTIVE" && st != "ARCHIVED" {
		return "RecordState must be ACTIVE or ARCHIVED"
	}
	return ""
}

// hubStringFilters are the StringFilter fields GetFindings understands
// here, each read from the finding's own top-level field.
var hubStringFilters = map[string]bool{"Id": true, "ProductArn": true, "AwsAccountId": true, "RecordState": true, "GeneratorId": true}

func (h *Findings) securityHubGetFindings(st *world.State, c *wire.Call) (any, error) {
	var in struct {
		Filters    map[string][]struct{ Key, Value, Comparison string }
		MaxResults int
		NextToken  string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	cur, err := wire.Paging{Prefix: "securityhub", Default: 100, Max: 100,
		BadSize: func(string) error {
			return wire.Errf(400, "InvalidInputException", "MaxResults must be between 1 and 100")
		},
		BadToken: wire.Errf(400, "InvalidInputException", "invalid NextToken")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	for field, fs := range in.Filters {
		if !hubStringFilters[field] && field != "ProductFields" {
			return nil, wire.Errf(400, "InvalidInputException", "filter %s is not emulated by the sandbox", field)
		}
		for _, f := range fs {
			if f.Comparison != "EQUALS" {
				return nil, wire.Errf(400, "InvalidInputException", "filter %s: comparison %s is not emulated by the sandbox", field, f.Comparison)
			}
		}
	}
	st.RLock()
	var match []hubFinding
	for _, f := range h.byPlace[c.Account+"|"+c.Region] {
		if hubMatches(f, in.Filters) {
			match = append(match, f)
		}
	}
	st.RUnlock()
	sort.Slice(match, func(i, j int) bool { return match[i].str("Id") < match[j].str("Id") })
	out := map[string]any{"Findings": []hubFinding{}}
	if lo, hi, next := cur.Cut(len(match)); lo < hi {
		out["Findings"] = match[lo:hi]
		if next != "" {
			out["NextToken"] = next
		}
	}
	return out, nil
}

// hubMatches applies GetFindings filters: values of one field are ORed,
// fields ANDed (EQUALS only).
func hubMatches(f hubFinding, filters map[string][]struct{ Key, Value, Comparison string }) bool {
	for field, fs := range filters {
		if len(fs) == 0 {
			continue
		}
		hit := false
		for _, flt := range fs {
			if field == "ProductFields" {
				pf, _ := f["ProductFields"].(map[string]any)
				v, _ := pf[flt.Key].(string)
				hit = hit || v == flt.Value
			} else {
				hit = hit || f.str(field) == flt.Value
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// Findings are the imported findings by account|region, then by
// ProductArn|Id, and the fields customers set on them (BatchUpdateFindings),
// guarded by the world state's lock (a handler's, or Of's). The zero value
// holds none.
type Findings struct {
	byPlace  map[string]map[string]hubFinding
	customer map[string]map[string]map[string]bool
}

func (h *Findings) place(account, region string) map[string]hubFinding {
	if h.byPlace == nil {
		h.byPlace = map[string]map[string]hubFinding{}
	}
	k := account + "|" + region
	if h.byPlace[k] == nil {
		h.byPlace[k] = map[string]hubFinding{}
	}
	return h.byPlace[k]
}

func (h *Findings) markCustomer(account, region, key, field string) {
	if h.customer == nil {
		h.customer = map[string]map[string]map[string]bool{}
	}
	p := account + "|" + region
	if h.customer[p] == nil {
		h.customer[p] = map[string]map[string]bool{}
	}
	if h.customer[p][key] == nil {
		h.customer[p][key] = map[string]bool{}
	}
	h.customer[p][key][field] = true
}

// Of returns copies of the findings imported into an account region's
// Security Hub, sorted by Id. It takes st's read lock.
func (h *Findings) Of(st *world.State, account, region string) []map[string]any {
	st.RLock()
	defer st.RUnlock()
	var out []map[string]any
	for _, f := range h.byPlace[account+"|"+region] {
		b, _ := json.Marshal(f)
		var cp map[string]any
		_ = json.Unmarshal(b, &cp)
		out = append(out, cp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i]["Id"].(string) < out[j]["Id"].(string) })
	return out
}
