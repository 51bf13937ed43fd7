package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// asffSchema is the AWS Security Finding Format version written.
const asffSchema = "2018-10-08"

// ASFF writes the drift findings of stacks as AWS Security Finding Format
// findings (a JSON array, the Findings of a BatchImportFindings call):
// confirmed drift HIGH (deleted, declared) or MEDIUM (undeclared, added),
// potential drift LOW; each resource not read INFORMATIONAL (its stack is
// incomplete, never clean); other informational tiers and failed stacks
// are left out.
// Ids are stable per stack, resource and path, so a re-import updates a
// finding instead of adding one. now is the finding time (the caller's
// clock).
func ASFF(w io.Writer, stacks []Stack, now time.Time) error {
	return ASFFPartial(w, stacks, now, Partial{})
}

// ASFFPartial is ASFF for a run that may have ended early: every finding
// of an interrupted run carries the ProductFields "realdrift/interrupted"
// ("true") and "realdrift/notChecked" (the stacks not checked, comma
// separated), an ASFF array having no place for a run-level marker.
func ASFFPartial(w io.Writer, stacks []Stack, now time.Time, p Partial) error {
	findings := ASFFFindings(stacks, now, true)
	if p.Interrupted || len(p.NotChecked) > 0 {
		for _, f := range findings {
			pf := f["ProductFields"].(map[string]any)
			pf["realdrift/interrupted"] = strconv.FormatBool(p.Interrupted)
			pf["realdrift/notChecked"] = truncate(strings.Join(p.NotChecked, ","), 2048)
		}
	}
	b, err := json.MarshalIndent(findings, "", "  ")
	if err != nil {
		return fmt.Errorf("write ASFF report: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write ASFF report: %w", err)
	}
	return nil
}

// ASFFFindings are the ASFF findings ASFF writes, as JSON-shaped maps;
// withPotential false leaves potential drift out (confirmed drift only, as
// the service imports into Security Hub). Each carries ProductFields
// "realdrift/stack", "realdrift/account" and "realdrift/region", by which a
// stack's findings are found again to archive those that resolved.
func ASFFFindings(stacks []Stack, now time.Time, withPotential bool) []map[string]any {
	ts := now.UTC().Format(time.RFC3339)
	out := []map[string]any{}
	for _, s := range stacks {
		if s.Err != nil {
			continue
		}
		for _, f := range sorted(s.Ref.Name, s.Findings) {
			label := ""
			switch {
			case potential(f) && !withPotential:
				continue
			case potential(f):
				label = "LOW"
			case f.Tier == drift.Deleted || f.Tier == drift.Declared:
				label = "HIGH"
			case f.Tier == drift.Undeclared || f.Tier == drift.Added:
				label = "MEDIUM"
			default:
				continue
			}
			resID := f.PhysicalID
			if resID == "" {
				resID = s.Ref.Name + "/" + f.LogicalID
			}
			name := ignore.DisplayPath(s.Ref.Name, f)
			title := fmt.Sprintf("%s drift: %s", f.Tier, name)
			if potential(f) {
				title = fmt.Sprintf("potential drift: %s", name)
			}
			fields := map[string]any{
				"SchemaVersion": asffSchema,
				"Id":            FindingID(s.Ref, f),
				"ProductArn":    fmt.Sprintf("arn:aws:securityhub:%s:%s:product/%s/default", s.Ref.Region, s.Ref.Account, s.Ref.Account),
				"GeneratorId":   "realdrift/" + f.Tier.String(),
				"AwsAccountId":  s.Ref.Account,
				"Region":        s.Ref.Region,
				"Types":         []string{"Software and Configuration Checks/AWS Config Analysis"},
				"CreatedAt":     ts,
				"UpdatedAt":     ts,
				"Severity":      map[string]any{"Label": label},
				"Title":         truncate(strings.TrimSpace(title), 256),
				"Description":   truncate(sarifMessage(s, f), 1024),
				"Resources": []any{map[string]any{
					"Type": "Other", "Id": resID, "Partition": "aws", "Region": s.Ref.Region,
					"Details": map[string]any{"Other": asffOther(map[string]string{
						"stack": s.Ref.Name, "logicalId": f.LogicalID, "resourceType": f.ResourceType, "path": f.Path,
					})},
				}},
				"ProductFields": map[string]any{
					"realdrift/stack": s.Ref.Name, "realdrift/account": s.Ref.Account, "realdrift/region": s.Ref.Region,
				},
				"Workflow":    map[string]any{"Status": "NEW"},
				"RecordState": "ACTIVE",
			}
			if f.ChangedBy != nil {
				addChangedBy(fields, *f.ChangedBy)
			}
			out = append(out, fields)
		}
		if withPotential {
			out = append(out, asffNotRead(s, ts)...)
		}
	}
	return out
}

// asffNotRead is one INFORMATIONAL finding per resource of s not read:
// the stack's verdict is then incomplete, never clean, and Security Hub
// shows what was not looked at and why.
func asffNotRead(s Stack, ts string) []map[string]any {
	var out []map[string]any
	sum := Summarize(s)
	for _, u := range UnreadResources(s) {
		f := u.F
		key := strings.Join([]string{s.Ref.Account, s.Ref.Region, s.Ref.Name, f.LogicalID, f.PhysicalID, "not read"}, "\x00")
		h := sha256.Sum256([]byte(key))
		resID := f.PhysicalID
		if resID == "" {
			resID = s.Ref.Name + "/" + f.LogicalID
		}
		out = append(out, map[string]any{
			"SchemaVersion": asffSchema,
			"Id":            "realdrift/" + hex.EncodeToString(h[:16]),
			"ProductArn":    fmt.Sprintf("arn:aws:securityhub:%s:%s:product/%s/default", s.Ref.Region, s.Ref.Account, s.Ref.Account),
			"GeneratorId":   "realdrift/notRead",
			"AwsAccountId":  s.Ref.Account,
			"Region":        s.Ref.Region,
			"Types":         []string{"Software and Configuration Checks/AWS Config Analysis"},
			"CreatedAt":     ts,
			"UpdatedAt":     ts,
			"Severity":      map[string]any{"Label": "INFORMATIONAL"},
			"Title":         truncate(fmt.Sprintf("not read: %s (%s) — %s", ignore.DisplayPath(s.Ref.Name, f), f.ResourceType, sum.Judged), 256),
			"Description": truncate(fmt.Sprintf("%s (%s) in %s was not read: %s. The stack's verdict is %s: drift there is unknown, not absent.",
				oneLine(ignore.DisplayPath(s.Ref.Name, f)), f.ResourceType, s.Ref, oneLine(u.Reason), sum.Judged), 1024),
			"Resources": []any{map[string]any{
				"Type": "Other", "Id": resID, "Partition": "aws", "Region": s.Ref.Region,
				"Details": map[string]any{"Other": asffOther(map[string]string{
					"stack": s.Ref.Name, "logicalId": f.LogicalID, "resourceType": f.ResourceType, "verdict": sum.Verdict.String(),
				})},
			}},
			"ProductFields": map[string]any{
				"realdrift/stack": s.Ref.Name, "realdrift/account": s.Ref.Account, "realdrift/region": s.Ref.Region,
			},
			"Workflow":    map[string]any{"Status": "NEW"},
			"RecordState": "ACTIVE",
		})
	}
	return out
}

// asffOther is a resource's Details.Other without its empty values: the
// ASFF map's values are NonEmptyString (a whole-resource finding has no
// path), and Security Hub refuses an empty one.
func asffOther(fields map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range fields {
		if strings.TrimSpace(v) != "" {
			out[k] = v
		}
	}
	return out
}

// truncate cuts s to at most n runes (ASFF field limits).
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// FindingID is a finding's stable id: the same stack (account, region,
// name), resource (logical and physical id), path and tier give the same
// id in every run and every report — the JSON report's id, SARIF's
// partialFingerprints (realdriftFindingId/v2) and ASFF's Id — so a
// re-import or a re-upload updates the finding it reported before. The
// tier is part of it: two findings of one resource and path that differ
// only in tier (a resource deleted and not read, skipped and ignored) are
// two findings, and a finding whose tier changes is a new one, the old
// one gone (Security Hub archives it, as it archives any finding no
// longer reported). Ids written before the tier was part of it (SARIF's
// v1 fingerprints) name the same findings under another value once.
func FindingID(ref drift.StackRef, f drift.Finding) string {
	key := strings.Join([]string{ref.Account, ref.Region, ref.Name, f.LogicalID, f.PhysicalID, f.Path, f.Tier.String()}, "\x00")
	sum := sha256.Sum256([]byte(key))
	return "realdrift/" + hex.EncodeToString(sum[:16])
}

// addChangedBy puts a finding's attribution into its ASFF finding:
// UserDefinedFields (changedBy.*, each at most 1,024 characters) and, for
// a known event, SourceUrl to the event in the CloudTrail console.
func addChangedBy(finding map[string]any, c drift.ChangedBy) {
	fields := map[string]string{}
	put := func(k, v string) {
		if v != "" {
			fields["changedBy."+k] = truncate(v, 1024)
		}
	}
	if !c.Known() {
		put("unknown", c.Unknown)
		finding["UserDefinedFields"] = fields
		return
	}
	put("principal", c.Principal)
	put("name", c.Name)
	put("sourceIdentity", c.SourceIdentity)
	put("eventName", c.EventName)
	put("eventSource", c.EventSource)
	put("time", c.Time.UTC().Format(time.RFC3339))
	put("sourceIP", c.SourceIP)
	put("agent", c.Agent.String())
	put("eventId", c.EventID)
	finding["UserDefinedFields"] = fields
	if u := EventURL(c); u != "" {
		finding["SourceUrl"] = u
	}
}

// EventURL is the CloudTrail console's page of a known event ("" when
// the event or its region is not known).
func EventURL(c drift.ChangedBy) string {
	if !c.Known() || c.Region == "" {
		return ""
	}
	return "https://" + c.Region + ".console.aws.amazon.com/cloudtrailv2/home?region=" + c.Region + "#/events/" + c.EventID
}
