package service

import (
	"context"
	"fmt"
	"sort"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// Classify is the classify function: it classifies the stack from the
// stored desired, live and children state (scan.ClassifyStack with the
// production classifier and the stored schema facts), reconciles the
// findings with the stack's stored baseline and the ignore rules, names
// who last changed each drifted resource (attribute), stores them and
// returns their key and counts.
func (s *Service) Classify(ctx context.Context, in statemachine.ClassifyTask) (statemachine.Classified, error) {
	var ds desiredState
	if err := s.mustJSON(ctx, in.RunID, in.DesiredKey, &ds); err != nil {
		return statemachine.Classified{}, stepError(err)
	}
	var rs resolvedState
	if err := s.mustJSON(ctx, in.RunID, in.ResolvedKey, &rs); err != nil {
		return statemachine.Classified{}, stepError(err)
	}
	lives, err := s.allLives(ctx, in.RunID, in.Stack, &ds, &rs)
	if err != nil {
		return statemachine.Classified{}, stepError(err)
	}
	children, err := s.loadChildren(ctx, in.RunID, in.Stack, &rs)
	if err != nil {
		return statemachine.Classified{}, stepError(err)
	}
	// The account facts the reads showed a need for (default security
	// groups, managed KMS aliases, the parameters of the nested templates
	// a stack resource echoes: a nested stack is a target of its own, and
	// what its stack resource echoes of it here is no drift), through the
	// member read role, as check asks for them.
	clients := s.clients(in.Stack.Account, in.Stack.Region)
	clients.AccountFacts(ctx, rs.Desired, lives)
	raw := scan.ClassifyStack(rs.Desired, lives, children, ds.factsFunc(), scan.Classifier())

	b, _, err := baseline.LoadStored(ctx, s.store, in.Stack)
	if err != nil {
		return statemachine.Classified{}, stepError(fmt.Errorf("classify %s: %w", in.Stack, err))
	}
	rules, err := s.ignoreRules(ctx)
	if err != nil {
		return statemachine.Classified{}, stepError(fmt.Errorf("classify %s: %w", in.Stack, err))
	}
	findings := Reconcile(rs.Desired, raw, b, rules)
	// Who changed each drifted resource (writers.go): the trigger's
	// stored event, else a LookupEvents call through the read role.
	if err := s.attribute(ctx, in.Stack, rs.Desired, b, findings); err != nil {
		return statemachine.Classified{}, stepError(fmt.Errorf("classify %s: who changed it: %w", in.Stack, err))
	}

	key := stateKey(keyFindings, in.Stack)
	if err := s.putJSON(ctx, in.RunID, key, findings); err != nil {
		return statemachine.Classified{}, stepError(err)
	}
	return statemachine.Classified{Key: key, Counts: Count(raw, findings)}, nil
}

// Reconcile applies a stack's baseline (nil: none recorded) and then the
// ignore rules to the classifier's findings, exactly as `realdrift check`
// does with its files, and returns them in the report's order (tier, the
// path the report shows, logical id).
func Reconcile(d *scan.Desired, findings []drift.Finding, b *baseline.Baseline, rules []ignore.Rule) []drift.Finding {
	applied := baseline.Apply(b, baseline.Input{
		Findings:     findings,
		Resources:    d.BaselineResources(),
		TemplateHash: baseline.TemplateHash([]byte(d.TemplateBody)),
	}, baseline.Options{})
	out := ignore.Apply(applied.Findings, d.Stack, rules)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Tier != b.Tier {
			return a.Tier < b.Tier
		}
		da, db := ignore.DisplayPath(d.Stack.Name, a), ignore.DisplayPath(d.Stack.Name, b)
		if da != db {
			return da < db
		}
		return a.LogicalID < b.LogicalID
	})
	return out
}

// ignoreRules reads the default scope's ignore rules and every configured
// scope's from the store; an absent document has no rules.
func (s *Service) ignoreRules(ctx context.Context) ([]ignore.Rule, error) {
	return ignore.LoadStored(ctx, s.store, append([]string{""}, s.set.IgnoreScopes...)...)
}

// Count summarizes findings for the payloads: "drift" (the drift set),
// "unrecorded" (potential drift), "suppressed" (undeclared values the
// baseline recorded as they are), and one key per other tier. raw are the
// findings before the baseline.
func Count(raw, findings []drift.Finding) statemachine.Counts {
	c := statemachine.Counts{"drift": 0}
	for _, f := range findings {
		switch {
		case f.Tier.IsDrift() && f.Unrecorded:
			c["unrecorded"]++
		case f.Tier.IsDrift():
			c["drift"]++
		default:
			c[f.Tier.String()]++
		}
	}
	kept := map[[3]string]bool{}
	for _, f := range findings {
		kept[[3]string{baseline.EntryID(f), f.Path, f.Tier.String()}] = true
	}
	for _, f := range raw {
		if (f.Tier == drift.Undeclared || f.Tier == drift.Added) && !kept[[3]string{baseline.EntryID(f), f.Path, f.Tier.String()}] && !kept[[3]string{baseline.EntryID(f), f.Path, drift.Ignored.String()}] {
			c["suppressed"]++
		}
	}
	return c
}
