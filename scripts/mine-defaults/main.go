// Command mine-defaults ranks the constant undeclared (type, path, value)
// triples of golden-corpus cases — the data-driven way seed 002 §6 grows the
// known-defaults tables — and writes the table the classifier embeds.
//
// Usage:
//
//	go run ./scripts/mine-defaults [-write internal/classify/known_values.json] [-top N] [-crossval] DIR...
//	go run ./scripts/mine-defaults -loo [-min-types N] [-misses] DIR...
//	go run ./scripts/mine-defaults -loo-documented [-v] DIR...
//
// Ranking: every live top-level value the template does not declare is
// reduced to a value template (the resource's own physical id, stack name,
// account and region replaced by placeholders) and
// counted per (type, path, template) across cases; a (type, path) whose
// every case shows the same template is "constant". The table written is
// the set of triples the corpus labels atDefault or generated, minus any
// triple the corpus also labels undeclared (a value that is real drift
// somewhere is never folded), minus the minted names the general rules
// already derive; it also records the empty values the corpus leaves silent
// per (type, path), so a default switched off is told from a legitimate
// "off". Top-level literals also give cross-type rows (folded on two or
// more types, never left unfolded anywhere); top-level and dotted-path
// literals give service rows (folded on a type of the service, never left
// unfolded on any of its types). A per-type top-level property that the
// corpus folds whenever it equals a declared sibling's value (two or more
// distinct values, never unfolded when equal) gives a declared-sibling row
// ("⟨decl:K⟩"). No entry names a case or a logical id.
//
// -crossval estimates how the rules generalise to unseen resources: it
// mines the table from one half of the cases (split by a hash of the file
// name) and replays the other half with it, both ways.
//
// -loo replays each case with the table mined from all the others, split
// by whether its type appears among them; -min-types sets the cross-type
// threshold for that run (to cross-validate it) and -misses prints what it
// got wrong — missed atDefault/generated values and false undeclared
// findings — grouped by path across types, unseen types first.
//
// -loo-documented measures the documented table
// (internal/classify/documented.json) leaving one type out: each type's
// cases replayed with the rows mined from the other types only and the
// type's imported and AWS-facts rows hidden, with and without the
// documented rows; it prints how many expected atDefault findings the
// documented rows alone recover and how many false folds they make (-v
// lists them and the misses). A benchmark, not a test: the figure is for the issue notes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/corpus"
)

func main() {
	write := flag.String("write", "", "write the known-values table to this file")
	top := flag.Int("top", 40, "print the N highest-ranked triples")
	crossval := flag.Bool("crossval", false, "estimate generalisation on held-out halves")
	loo := flag.Bool("loo", false, "estimate generalisation leaving one case out at a time")
	minTypes := flag.Int("min-types", corpus.MinCrossTypes, "with -loo: distinct types a cross-type row needs")
	misses := flag.Bool("misses", false, "with -loo: print the misses (unseen types, then seen types) grouped by path across types")
	looDoc := flag.Bool("loo-documented", false, "leave one type out: what the documented table alone recovers of each type's atDefault findings, and its false folds")
	verbose := flag.Bool("v", false, "with -loo-documented: list each recovered finding and false fold")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mine-defaults [-write FILE] [-top N] [-crossval] DIR...")
		os.Exit(2)
	}
	if *looDoc {
		if err := looDocumented(os.Stdout, flag.Args(), *minTypes, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "mine-defaults:", err)
			os.Exit(2)
		}
		return
	}
	if *loo {
		if err := leaveOneOut(flag.Args(), *minTypes, *misses); err != nil {
			fmt.Fprintln(os.Stderr, "mine-defaults:", err)
			os.Exit(2)
		}
		return
	}
	if err := run(*write, *top, *crossval, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mine-defaults:", err)
		os.Exit(2)
	}
}

func run(write string, top int, crossval bool, dirs []string) error {
	cases, err := corpus.LoadDirs(dirs...)
	if err != nil {
		return err
	}
	rank := corpus.RankUndeclared(cases)
	fmt.Printf("%d cases, %d undeclared top-level triples\n", len(cases), len(rank))
	fmt.Println("cases  constant  type  path  value")
	for i, r := range rank {
		if i >= top {
			break
		}
		v := r.Value
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Printf("%5d  %-8v  %s  %s  %s\n", r.Cases, r.Constant, r.Type, r.Path, v)
	}
	rows := corpus.MineKnown(cases)
	fmt.Printf("%d known values (atDefault/generated)\n", len(rows))
	if crossval {
		var diffs *os.File
		if p := os.Getenv("MINE_CROSSVAL_DIFFS"); p != "" {
			if diffs, err = os.Create(p); err != nil {
				return err
			}
			defer diffs.Close()
		}
		if err := crossValidate(cases, diffs); err != nil {
			return err
		}
	}
	if write == "" {
		return nil
	}
	return writeTable(write, rows)
}

func crossValidate(cases []*corpus.Case, diffs *os.File) error {
	var halves [2][]*corpus.Case
	for _, c := range cases {
		h := fnv.New32a()
		h.Write([]byte(c.File))
		halves[h.Sum32()%2] = append(halves[h.Sum32()%2], c)
	}
	for i := 0; i < 2; i++ {
		train, test := halves[i], halves[1-i]
		table, err := classify.NewKnownTable(corpus.MineKnown(train))
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, c := range train {
			seen[c.Resource.ResourceType] = true
		}
		var all, unseen []corpus.Result
		for _, c := range test {
			res := corpus.Compare(c.File, corpus.ReplayWith(c, table), c.Expected)
			all = append(all, res)
			if !seen[c.Resource.ResourceType] {
				unseen = append(unseen, res)
			}
			if diffs != nil && !res.Exact {
				kind := "seen"
				if !seen[c.Resource.ResourceType] {
					kind = "unseen"
				}
				fmt.Fprintf(diffs, "FAIL %s %s\n%s", kind, c.File, res.Diff)
			}
		}
		fmt.Printf("crossval fold %d (train %d, test %d): %s\n", i, len(train), len(test), corpus.Summarize(all).Line())
		fmt.Printf("crossval fold %d unseen types only (%d): %s\n", i, len(unseen), corpus.Summarize(unseen).Line())
	}
	return nil
}

func writeTable(path string, rows []classify.KnownValue) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.WriteString("[\n"); err != nil {
		return err
	}
	for i, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == len(rows)-1 {
			sep = "\n"
		}
		if _, err := f.WriteString(string(b) + sep); err != nil {
			return err
		}
	}
	if _, err := f.WriteString("]\n"); err != nil {
		return err
	}
	return f.Close()
}

// leaveOneOut replays each case with the table mined from all the others,
// split by whether the case's type appears among the others.
func leaveOneOut(dirs []string, minTypes int, printMisses bool) error {
	cases, err := corpus.LoadDirs(dirs...)
	if err != nil {
		return err
	}
	types := map[string]int{}
	for _, c := range cases {
		types[c.Resource.ResourceType]++
	}
	var seen, unseen []corpus.Result
	var missed, seenMissed []miss
	for i, c := range cases {
		rest := make([]*corpus.Case, 0, len(cases)-1)
		rest = append(rest, cases[:i]...)
		rest = append(rest, cases[i+1:]...)
		table, err := classify.NewKnownTable(corpus.MineKnownWith(rest, minTypes))
		if err != nil {
			return err
		}
		res := corpus.Compare(c.File, corpus.ReplayWith(c, table), c.Expected)
		if types[c.Resource.ResourceType] > 1 {
			seen = append(seen, res)
			seenMissed = append(seenMissed, missesOf(c.Resource.ResourceType, res)...)
		} else {
			unseen = append(unseen, res)
			missed = append(missed, missesOf(c.Resource.ResourceType, res)...)
		}
		if os.Getenv("MINE_LOO_DIFFS") != "" && !res.Exact {
			kind := "seen"
			if types[c.Resource.ResourceType] == 1 {
				kind = "unseen"
			}
			fmt.Fprintf(os.Stderr, "FAIL %s %s\n%s", kind, c.File, res.Diff)
		}
	}
	fmt.Printf("loo seen types (%d): %s\n", len(seen), corpus.Summarize(seen).Line())
	fmt.Printf("loo unseen types (%d): %s\n", len(unseen), corpus.Summarize(unseen).Line())
	if printMisses {
		fmt.Println("== unseen types")
		printMissesByPath(os.Stdout, missed)
		fmt.Println("== seen types")
		printMissesByPath(os.Stdout, seenMissed)
	}
	return nil
}
