package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// Template is where a stack's template is, for reports that point at it:
// URI is the template file (relative to the repository root when it is a
// synthesized template under it), Lines maps logical id → the line that
// declares the resource.
type Template struct {
	URI   string
	Lines map[string]int
}

// sarifVersion and sarifSchema are the SARIF version written.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// sarifRule is one reporting rule: a drift section of the text report.
type sarifRule struct {
	id, name, level, text string
	take                  func(drift.Finding) bool
}

func sarifRules() []sarifRule {
	return []sarifRule{
		{"RD001", "DeletedResource", "error", "A resource in the template is gone from AWS.", func(f drift.Finding) bool { return f.Tier == drift.Deleted }},
		{"RD002", "DeclaredDrift", "error", "A live value differs from the deployed template.", func(f drift.Finding) bool { return f.Tier == drift.Declared }},
		{"RD003", "UndeclaredDrift", "warning", "Live-only state differs from the recorded baseline.", func(f drift.Finding) bool { return f.Tier == drift.Undeclared && !f.Unrecorded }},
		{"RD004", "AddedResource", "warning", "A live resource the template does not have, not as the baseline recorded it.", func(f drift.Finding) bool { return f.Tier == drift.Added && !f.Unrecorded }},
		{"RD005", "PotentialDrift", "note", "Live-only state not yet in the baseline: record it to accept it, or revert it.", potential},
	}
}

// SARIF writes stacks as one SARIF 2.1.0 log: a result per drift finding
// (potential drift as notes), located on the template line that declares
// the finding's resource (the stack's first line for a resource the
// template lacks). templates gives each stack's template; a stack it has
// none for is located by a stack URI alone. A stack that could not be
// checked is a failed tool execution notification; each resource not read
// is a warning notification (descriptor RD900) naming why, and a stack of
// which nothing could be read makes the execution unsuccessful.
func SARIF(w io.Writer, stacks []Stack, templates func(Stack) Template) error {
	rules := sarifRules()
	ruleIndex := map[string]int{}
	var driver []map[string]any
	for i, r := range rules {
		ruleIndex[r.id] = i
		driver = append(driver, map[string]any{
			"id": r.id, "name": r.name,
			"shortDescription":     map[string]any{"text": r.text},
			"defaultConfiguration": map[string]any{"level": r.level},
		})
	}
	results := []map[string]any{}
	var notes []map[string]any
	successful := true
	for _, s := range stacks {
		if s.Err != nil {
			successful = false
			notes = append(notes, map[string]any{
				"level":   "error",
				"message": map[string]any{"text": fmt.Sprintf("%s: %s", s.Ref, oneLine(s.Err.Error()))},
			})
			continue
		}
		// Every resource not read is a notification: the run did not see
		// it, so no result about it means nothing. A stack of which
		// nothing could be read is a failed execution.
		sum := Summarize(s)
		if sum.Unread > 0 && sum.Unread == sum.Resources {
			successful = false
		}
		for _, u := range UnreadResources(s) {
			notes = append(notes, map[string]any{
				"level": "warning",
				"message": map[string]any{"text": fmt.Sprintf("%s (%s) in %s not read: %s — %s",
					oneLine(ignore.DisplayPath(s.Ref.Name, u.F)), u.F.ResourceType, s.Ref, oneLine(u.Reason), sum.Judged)},
				"descriptor": map[string]any{"id": "RD900"},
				"locations": []any{map[string]any{"logicalLocations": []any{map[string]any{
					"name": u.F.LogicalID, "fullyQualifiedName": s.Ref.Name + "/" + u.F.LogicalID, "kind": "resource",
				}}}},
				"properties": map[string]any{
					"stack": s.Ref.Name, "account": s.Ref.Account, "region": s.Ref.Region,
					"resourceType": u.F.ResourceType, "verdict": sum.Verdict.String(),
				},
			})
		}
		var tpl Template
		if templates != nil {
			tpl = templates(s)
		}
		if tpl.URI == "" {
			tpl.URI = s.Ref.Name + ".template"
		}
		for _, f := range sorted(s.Ref.Name, s.Findings) {
			for _, r := range rules {
				if !r.take(f) {
					continue
				}
				line := tpl.Lines[f.LogicalID]
				if line < 1 {
					line = 1
				}
				results = append(results, map[string]any{
					"ruleId":    r.id,
					"ruleIndex": ruleIndex[r.id],
					"level":     r.level,
					"message":   map[string]any{"text": sarifMessage(s, f)},
					"locations": []any{map[string]any{
						"physicalLocation": map[string]any{
							"artifactLocation": map[string]any{"uri": tpl.URI},
							"region":           map[string]any{"startLine": line},
						},
						"logicalLocations": []any{map[string]any{
							"name": f.LogicalID, "fullyQualifiedName": s.Ref.Name + "/" + f.LogicalID, "kind": "resource",
						}},
					}},
					"partialFingerprints": map[string]any{
						"realdrift/v1": fmt.Sprintf("%s/%s/%s/%s/%s", s.Ref.Account, s.Ref.Region, s.Ref.Name, f.LogicalID, f.Path),
					},
					"properties": map[string]any{
						"stack": s.Ref.Name, "account": s.Ref.Account, "region": s.Ref.Region,
						"resourceType": f.ResourceType, "path": f.Path, "tier": f.Tier.String(),
					},
				})
				break
			}
		}
	}
	invocation := map[string]any{"executionSuccessful": successful}
	if len(notes) > 0 {
		invocation["toolExecutionNotifications"] = notes
	}
	log := map[string]any{
		"$schema": sarifSchema,
		"version": sarifVersion,
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "realdrift", "informationUri": "https://github.com/realdrift/realdrift", "rules": driver,
			}},
			"invocations": []any{invocation},
			"results":     results,
		}},
	}
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return fmt.Errorf("write SARIF report: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write SARIF report: %w", err)
	}
	return nil
}

// sarifMessage is a finding's one-line message, as the text report says it.
func sarifMessage(s Stack, f drift.Finding) string {
	what := findingWhat(f, Options{}, "gone from AWS (a deploy of the unchanged template does not recreate it)")
	msg := fmt.Sprintf("%s (%s) in %s: %s", oneLine(ignore.DisplayPath(s.Ref.Name, f)), f.ResourceType, s.Ref, what)
	if f.Note != "" {
		msg += " — " + oneLine(f.Note)
	}
	return msg
}
