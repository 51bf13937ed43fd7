package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// Template is where a stack's template is, for reports that point at it:
// URI is the template file relative to the repository root (a cloud
// assembly's synthesized template under the working directory); "" when
// there is no such file (a deployed template exists nowhere in the
// repository), and results then carry a logical location only. Lines maps
// logical id → the line that declares the resource; Sources logical id →
// the construct's source file and line where the assembly's metadata
// records it.
type Template struct {
	URI     string
	Lines   map[string]int
	Sources map[string]Source
}

// Source is a place in a source file (relative to the repository root).
type Source struct {
	File string
	Line int
}

// SARIFOptions are what a SARIF log says besides the findings.
type SARIFOptions struct {
	// Templates gives each stack's template (nil: none).
	Templates func(Stack) Template
	// ToolVersion is realdrift's version (tool.driver.version).
	ToolVersion string
	// Partial marks a run that ended early (the zero value: a whole run).
	Partial Partial
}

// sarifVersion and sarifSchema are the SARIF version written.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// sarifRule is one reporting rule: a drift section of the text report, or
// a security category (security.go) of drift.
type sarifRule struct {
	id, name, level, text, help string
	take                        func(drift.Finding) bool
	// security is the category's security-severity ("" for the tiers'
	// general rules).
	security string
}

func sarifRules() []sarifRule {
	rules := []sarifRule{
		{"RD001", "DeletedResource", "error", "A resource in the template is gone from AWS.",
			"The deployed template declares the resource but AWS no longer has it: it was deleted outside CloudFormation. The next deploy of the unchanged template does not recreate it. Recreate it (remove it from the template, deploy, put it back and deploy again), or delete it from the template if it is no longer wanted.",
			func(f drift.Finding) bool { return f.Tier == drift.Deleted }, ""},
		{"RD002", "DeclaredDrift", "error", "A live value differs from the deployed template.",
			"A property the template declares has another value in AWS: someone changed it outside CloudFormation, and the next deploy may silently put it back (or fail). Revert it (realdrift revert), or put the live value in the template and deploy.",
			func(f drift.Finding) bool { return f.Tier == drift.Declared }, ""},
		{"RD003", "UndeclaredDrift", "warning", "Live-only state differs from the recorded baseline.",
			"A property the template does not declare changed since the baseline was recorded (realdrift record). CloudFormation never sees such a change and no deploy reverts it. Revert it (realdrift revert), record it as the new baseline if it was meant (realdrift record), or declare it in the template.",
			func(f drift.Finding) bool { return f.Tier == drift.Undeclared && !f.Unrecorded }, ""},
		{"RD004", "AddedResource", "warning", "A live resource the template does not have, not as the baseline recorded it.",
			"A child resource (a policy, a subscription, a rule) exists in AWS beside a resource of the stack, created outside CloudFormation and not in the recorded baseline. Remove it (realdrift revert), record it if it was meant (realdrift record), or declare it in the template.",
			func(f drift.Finding) bool { return f.Tier == drift.Added && !f.Unrecorded }, ""},
		{"RD005", "PotentialDrift", "note", "Live-only state not yet in the baseline: record it to accept it, or revert it.",
			"realdrift has no recorded baseline value for this live-only state, so it cannot tell a change from the state at deploy. Review it once: record it (realdrift record) to accept it, after which only changes are reported, or revert it (realdrift revert).",
			potential, ""},
	}
	// A security category takes a tier's confirmed drift before the
	// tier's general rule does; its level is the tier's.
	var out []sarifRule
	for _, c := range securityCategories() {
		out = append(out, sarifRule{
			id: c.id, name: c.name, level: "error", text: c.short, help: c.help, security: c.severity,
			take: func(f drift.Finding) bool {
				if potential(f) || !(f.Tier == drift.Deleted || f.Tier == drift.Declared || f.Tier == drift.Undeclared || f.Tier == drift.Added) {
					return false
				}
				got, ok := securityCategoryOf(f)
				return ok && got.id == c.id
			},
		})
	}
	return append(out, rules...)
}

// tierLevel is a drift tier's SARIF level, the level of its general rule.
func tierLevel(rules []sarifRule, f drift.Finding) string {
	for _, r := range rules {
		if r.security == "" && r.take(f) {
			return r.level
		}
	}
	return "warning"
}

// ruleDescriptor is a rule as SARIF's reportingDescriptor, with what
// GitHub code scanning shows: short and full descriptions, help (text and
// Markdown), tags, precision, problem severity, and for a security
// category its security-severity.
func ruleDescriptor(r sarifRule) map[string]any {
	props := map[string]any{
		"tags":             []string{"drift", "cloudformation"},
		"precision":        "high",
		"problem.severity": map[string]string{"error": "error", "warning": "warning", "note": "recommendation"}[r.level],
	}
	if r.security != "" {
		props["tags"] = []string{"drift", "cloudformation", "security"}
		props["security-severity"] = r.security
	}
	return map[string]any{
		"id": r.id, "name": r.name,
		"shortDescription":     map[string]any{"text": r.text},
		"fullDescription":      map[string]any{"text": r.text + " " + r.help},
		"help":                 map[string]any{"text": r.help, "markdown": "**" + r.text + "**\n\n" + r.help},
		"helpUri":              "https://github.com/realdrift/realdrift#the-cli-verbs",
		"defaultConfiguration": map[string]any{"level": r.level},
		"properties":           props,
	}
}

// SARIF writes stacks as one SARIF 2.1.0 log: a result per drift finding
// (potential drift as notes), under a rule per tier or, for drift on a
// security-relevant property or resource, under its security category's
// rule. A result is located on the template line that declares its
// resource when the stack's template is a file in the repository (with
// the construct's source as a related location where known), else by a
// logical location only (account/region/stack/logical id, so same-named
// stacks of two accounts or regions stay apart). A stack that could not be
// checked is a failed tool execution notification; each resource not read
// is a warning notification (descriptor RD900) naming why, and a stack of
// which nothing could be read makes the execution unsuccessful. A
// resource with nothing to read (a custom resource) is a note
// notification (RD901): listed, not a gap. A partial run
// (SARIFOptions.Partial: interrupted, stacks not checked) is an
// unsuccessful invocation with the properties interrupted and notChecked
// and an error notification (RD902) naming the stacks not checked.
func SARIF(w io.Writer, stacks []Stack, opt SARIFOptions) error {
	templates, p := opt.Templates, opt.Partial
	rules := sarifRules()
	ruleIndex := map[string]int{}
	var driver []map[string]any
	for i, r := range rules {
		ruleIndex[r.id] = i
		driver = append(driver, ruleDescriptor(r))
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
				"locations":  []any{map[string]any{"logicalLocations": []any{logicalLocation(s.Ref, u.F.LogicalID)}}},
				"properties": map[string]any{
					"stack": s.Ref.Name, "account": s.Ref.Account, "region": s.Ref.Region,
					"resourceType": u.F.ResourceType, "verdict": sum.Verdict.String(),
				},
			})
		}
		for _, f := range NothingToRead(s) {
			notes = append(notes, map[string]any{
				"level": "note",
				"message": map[string]any{"text": fmt.Sprintf("%s (%s) in %s has nothing to read: %s — not counted as unread",
					oneLine(ignore.DisplayPath(s.Ref.Name, f)), f.ResourceType, s.Ref, oneLine(f.Reason))},
				"descriptor": map[string]any{"id": "RD901"},
				"locations":  []any{map[string]any{"logicalLocations": []any{logicalLocation(s.Ref, f.LogicalID)}}},
				"properties": map[string]any{
					"stack": s.Ref.Name, "account": s.Ref.Account, "region": s.Ref.Region,
					"resourceType": f.ResourceType, "verdict": sum.Verdict.String(),
				},
			})
		}
		var tpl Template
		if templates != nil {
			tpl = templates(s)
		}
		for _, f := range sorted(s.Ref.Name, s.Findings) {
			for _, r := range rules {
				if !r.take(f) {
					continue
				}
				results = append(results, sarifResult(s, f, r, tierLevel(rules, f), ruleIndex[r.id], tpl))
				break
			}
		}
	}
	if p.Interrupted || len(p.NotChecked) > 0 {
		successful = false
		notes = append(notes, map[string]any{
			"level":      "error",
			"message":    map[string]any{"text": partialLine(p)},
			"descriptor": map[string]any{"id": "RD902"},
		})
	}
	invocation := map[string]any{"executionSuccessful": successful}
	if p.Interrupted || len(p.NotChecked) > 0 {
		invocation["properties"] = map[string]any{"interrupted": p.Interrupted, "notChecked": nonNil(p.NotChecked)}
	}
	if len(notes) > 0 {
		invocation["toolExecutionNotifications"] = notes
	}
	log := map[string]any{
		"$schema": sarifSchema,
		"version": sarifVersion,
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "realdrift", "version": toolVersion(opt.ToolVersion), "informationUri": "https://github.com/realdrift/realdrift", "rules": driver,
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

// toolVersion is the version SARIF names: numeric first, as SARIF
// validators want it compared (v1.2.3 → 1.2.3; a build without a release
// version, "(devel)", → 0.0.0-devel).
func toolVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "0.0.0-devel"
	}
	return v
}

// logicalLocation names a resource of a stack: account/region/stack/
// logical id, so same-named stacks of two accounts or regions stay apart.
func logicalLocation(ref drift.StackRef, logicalID string) map[string]any {
	return map[string]any{
		"name": logicalID, "kind": "resource",
		"fullyQualifiedName": fmt.Sprintf("%s/%s/%s/%s", ref.Account, ref.Region, ref.Name, logicalID),
	}
}

// sarifResult is one finding as a SARIF result under rule r.
func sarifResult(s Stack, f drift.Finding, r sarifRule, level string, index int, tpl Template) map[string]any {
	loc := map[string]any{"logicalLocations": []any{logicalLocation(s.Ref, f.LogicalID)}}
	result := map[string]any{
		"ruleId":    r.id,
		"ruleIndex": index,
		"level":     level,
		"message":   map[string]any{"text": sarifMessage(s, f)},
		"locations": []any{loc},
		"partialFingerprints": map[string]any{
			"realdriftFindingId/v2": FindingID(s.Ref, f),
		},
		"properties": map[string]any{
			"stack": s.Ref.Name, "account": s.Ref.Account, "region": s.Ref.Region,
			"resourceType": f.ResourceType, "path": f.Path, "tier": f.Tier.String(),
			"id": FindingID(s.Ref, f),
		},
	}
	if f.ChangedBy != nil {
		result["properties"].(map[string]any)["changedBy"] = *f.ChangedBy
	}
	if tpl.URI == "" {
		return result
	}
	line := tpl.Lines[f.LogicalID]
	if line < 1 {
		line = 1 // a resource the template lacks: the stack's first line
	}
	loc["physicalLocation"] = map[string]any{
		"artifactLocation": map[string]any{"uri": tpl.URI},
		"region":           map[string]any{"startLine": line},
	}
	if src, ok := tpl.Sources[f.LogicalID]; ok && src.File != "" && src.Line > 0 {
		result["relatedLocations"] = []any{map[string]any{
			"id": 1,
			"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": src.File},
				"region":           map[string]any{"startLine": src.Line},
			},
			"message": map[string]any{"text": "the construct that defines " + f.LogicalID},
		}}
	}
	return result
}
