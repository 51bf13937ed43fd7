package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

const ignoreSynopsis = `--path PATTERN [--stack GLOB] [--account GLOB] [--region GLOB] [--state-dir DIR | --store URL] [STACK]
       realdrift ignore [flags] (--all | STACK|GLOB ...) [--all-findings] [--scope stack,account,region]

Appends ignore rules to <state-dir>/ignore.yaml (comments and order kept),
or with --store dynamodb://TABLE[?region=REGION] to the service's table:
realdrift then reports matching declared, undeclared and added findings as
ignored (a deleted resource is never ignored). The table's region is its
?region=, else AWS_REGION (with --path, --region scopes the rule).

With --path, writes one rule without calling AWS. PATTERN globs (* ?) against
<logicalId>.<path>, <constructPath>.<path> or <stack>/<constructPath>.<path>;
a parent path covers its children. --stack, --account and --region (globs)
scope the rule; a STACK argument is the same as --stack.

Without --path, checks the stacks and offers their declared, undeclared and
added findings to choose from (on a terminal), or takes them all with
--all-findings. Each rule is the finding's path as the report shows it;
--scope adds the finding's own stack, account and/or region to it. Here
--region is where the stacks are, and their nested stacks are checked too
(--no-recursive: only the stacks chosen).`

func runIgnore(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "ignore", ignoreSynopsis)
	var f stackFlags
	f.register(fs)
	path := fs.String("path", "", "write one rule for this path pattern, without checking")
	stackScope := fs.String("stack", "", "with --path: the stack scope (glob)")
	accountScope := fs.String("account", "", "with --path: the account scope (glob)")
	allFindings := fs.Bool("all-findings", false, "without --path: ignore every declared, undeclared and added finding of the stacks")
	scopes := fs.String("scope", "", "without --path: scope each rule to its finding's stack, account and/or region (comma list)")
	f.registerRecursion(fs)
	if done, code := parse(s, fs, args); done {
		return code
	}
	if *path != "" {
		return ignorePath(ctx, s, f, *path, *stackScope, *accountScope, fs.Args(), *allFindings, *scopes)
	}
	if *stackScope != "" || *accountScope != "" {
		return fail(s, "ignore", errors.New("--stack and --account scope a --path rule; without --path use --scope"))
	}
	scope, err := parseScope(*scopes)
	if err != nil {
		return fail(s, "ignore", err)
	}
	if !*allFindings && (!s.StdinTTY || !s.IsTTY || s.Stdin == nil) {
		return fail(s, "ignore", errors.New("nothing chosen: pass --all-findings, --path PATTERN, or run on a terminal to choose"))
	}
	sess, err := f.open(ctx, s, fs.Args())
	if err != nil {
		return fail(s, "ignore", err)
	}
	defer sess.close()
	runs := sess.gatherAll(ctx, gatherMode{})
	if ctx.Err() != nil {
		fmt.Fprintf(s.Stderr, "realdrift ignore: interrupted while checking (%d of %d stacks checked); nothing written to ignore.yaml\n", len(runs), len(sess.targets))
		return ExitInterrupt
	}
	for _, r := range runs {
		if r.err != nil {
			return fail(s, "ignore", fmt.Errorf("%s: %w (nothing written)", r.ref.Name, r.err))
		}
	}
	var in *answers
	if !*allFindings {
		in = newAnswers(s.Stdin)
	}
	code := ignoreRuns(ctx, s, sess, runs, in, scope)
	if code == ExitInterrupt {
		fmt.Fprintln(s.Stderr, "realdrift ignore: interrupted at the prompt — no rule written")
	}
	return code
}

// ignoreCandidates are the findings of runs a rule can silence.
func ignoreCandidates(runs []*stackRun) []candidate {
	var out []candidate
	for _, r := range runs {
		if r.err != nil {
			continue
		}
		for _, f := range r.findings {
			switch f.Tier {
			case drift.Declared, drift.Undeclared, drift.Added:
				out = append(out, candidate{r.ref, f})
			}
		}
	}
	return out
}

// candidate is a finding of a checked stack.
type candidate struct {
	ref drift.StackRef
	f   drift.Finding
}

// ignoreRuns appends a rule for each chosen candidate finding of runs:
// chosen on in, or all of them when in is nil.
func ignoreRuns(ctx context.Context, s IO, sess *session, runs []*stackRun, in *answers, scope ruleScope) int {
	cands := ignoreCandidates(runs)
	if len(cands) == 0 {
		fmt.Fprintln(s.Stdout, "nothing to ignore: no declared, undeclared or added finding")
		return ExitOK
	}
	picked := make([]int, len(cands))
	for i := range picked {
		picked[i] = i
	}
	if in != nil {
		items := make([]string, len(cands))
		for i, c := range cands {
			items[i] = c.ref.Name + ": " + describe(c.ref.Name, c.f)
		}
		var err error
		if picked, err = chooseItems(ctx, s.Stdout, in, "Findings that can be ignored:", items); err != nil {
			if ctx.Err() != nil {
				return ExitInterrupt // the caller says what was done
			}
			return fail(s, "ignore", err)
		}
		if len(picked) == 0 {
			fmt.Fprintln(s.Stdout, "nothing chosen; no rule written")
			return ExitOK
		}
	}
	var rules []ignore.Rule
	for _, i := range picked {
		c := cands[i]
		r := ignore.RuleFor(c.ref.Name, c.f)
		if scope.stack {
			r.Stack = c.ref.Name
		}
		if scope.account {
			r.Account = c.ref.Account
		}
		if scope.region {
			r.Region = c.ref.Region
		}
		rules = append(rules, r)
	}
	return appendRules(ctx, s, sess.state, rules)
}

// ignorePath writes one --path rule.
func ignorePath(ctx context.Context, s IO, f stackFlags, path, stack, account string, args []string, allFindings bool, scopes string) int {
	switch {
	case allFindings || scopes != "":
		return fail(s, "ignore", errors.New("--all-findings and --scope choose findings; --path writes a rule directly"))
	case f.all:
		return fail(s, "ignore", errors.New("--all chooses stacks to check; with --path, scope the rule with --stack"))
	case len(args) > 1:
		return fail(s, "ignore", fmt.Errorf("with --path, give at most one STACK (the rule's stack scope), not %d", len(args)))
	case len(args) == 1 && stack != "" && stack != args[0]:
		return fail(s, "ignore", fmt.Errorf("stack scope given twice: %q and --stack %q", args[0], stack))
	}
	if len(args) == 1 {
		stack = args[0]
	}
	if err := f.validate(); err != nil {
		return fail(s, "ignore", err)
	}
	// Here --region is the rule's region scope, never the table's: a table
	// is in its URL's ?region=, else AWS_REGION, AWS_DEFAULT_REGION or the
	// profile's region.
	region := firstNonEmpty(getenv(s, "AWS_REGION"), getenv(s, "AWS_DEFAULT_REGION"))
	if region == "" {
		region = profileRegion(ctx, s, f.profileName(s))
	}
	st, err := f.openState(ctx, s, region, f.awsSettings(s, region))
	if err != nil {
		return fail(s, "ignore", err)
	}
	return appendRules(ctx, s, st, []ignore.Rule{{Path: path, Stack: stack, Account: account, Region: f.region}})
}

// appendRules appends rules to the state's ignore rules (the directory's
// ignore.yaml or the table's default document) and reports what it added.
// A malformed ignore document is an error naming it; nothing is written
// then.
func appendRules(ctx context.Context, s IO, st *state, rules []ignore.Rule) int {
	added, err := ignore.AppendStored(ctx, st.docs, "", rules)
	if err != nil {
		return fail(s, "ignore", st.explain(err))
	}
	if len(added) == 0 {
		fmt.Fprintf(s.Stdout, "no new rule: %s already has them\n", st.ignoreSource())
		return ExitOK
	}
	fmt.Fprintf(s.Stdout, "added %d ignore rule(s) to %s:\n", len(added), st.ignoreWhere())
	for _, r := range added {
		fmt.Fprintf(s.Stdout, "  - %s\n", r)
	}
	return ExitOK
}

// ruleScope says which of a finding's identity axes scope its rule.
type ruleScope struct{ stack, account, region bool }

func parseScope(s string) (ruleScope, error) {
	var sc ruleScope
	if s == "" {
		return sc, nil
	}
	for _, p := range strings.Split(s, ",") {
		switch strings.TrimSpace(p) {
		case "stack":
			sc.stack = true
		case "account":
			sc.account = true
		case "region":
			sc.region = true
		default:
			return sc, fmt.Errorf("--scope: %q is not stack, account or region", p)
		}
	}
	return sc, nil
}
