// Command mine-defaults ranks the constant undeclared (type, path, value)
// triples of golden-corpus cases — the data-driven way seed 002 §6 grows the
// known-defaults tables — and writes the table the classifier embeds.
//
// Usage:
//
//	go run ./scripts/mine-defaults [-write internal/classify/known_values.json] [-top N] DIR...
//
// Ranking: every live top-level value the template does not declare is
// reduced to a value template (the resource's own physical id, stack name,
// account, region and AWS-minted id tokens replaced by placeholders) and
// counted per (type, path, template) across cases; a (type, path) whose
// every case shows the same template is "constant". The table written is
// the set of triples the corpus labels atDefault or generated, minus any
// triple the corpus also labels undeclared (a value that is real drift
// somewhere is never folded). No entry names a case or a logical id.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
)

func main() {
	write := flag.String("write", "", "write the known-values table to this file")
	top := flag.Int("top", 40, "print the N highest-ranked constant triples")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mine-defaults [-write FILE] [-top N] DIR...")
		os.Exit(2)
	}
	if err := run(*write, *top, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mine-defaults:", err)
		os.Exit(2)
	}
}

type triple struct{ typ, path, value string }

func run(write string, top int, dirs []string) error {
	cases, err := corpus.LoadDirs(dirs...)
	if err != nil {
		return err
	}
	// Ranking of constant undeclared top-level triples.
	seen := map[triple]int{}
	perPath := map[[2]string]map[string]bool{}
	// Labels from the corpus.
	labels := map[triple]map[drift.Tier]int{}
	for _, c := range cases {
		s := classify.Subject{Ref: drift.ResourceRef{LogicalID: c.Resource.LogicalID, Type: c.Resource.ResourceType, PhysicalID: c.Resource.PhysicalID}}
		ctx := classify.ContextFor(s, c.LiveRaw, classify.OptionsFromMap(c.Opts))
		typ := c.Resource.ResourceType
		for k, v := range c.LiveRaw {
			if _, declared := c.Resource.Declared[k]; declared {
				continue
			}
			t := triple{typ, k, classify.Template(v, ctx)}
			seen[t]++
			pp := [2]string{typ, k}
			if perPath[pp] == nil {
				perPath[pp] = map[string]bool{}
			}
			perPath[pp][t.value] = true
		}
		for _, f := range c.Expected {
			switch f.Tier {
			case drift.AtDefault, drift.Generated, drift.Undeclared:
			default:
				continue
			}
			t := triple{typ, classify.KeyPath(f.Path), classify.Template(f.Actual, ctx)}
			if labels[t] == nil {
				labels[t] = map[drift.Tier]int{}
			}
			labels[t][f.Tier]++
		}
	}

	type ranked struct {
		t        triple
		n        int
		constant bool
	}
	var rank []ranked
	for t, n := range seen {
		rank = append(rank, ranked{t, n, len(perPath[[2]string{t.typ, t.path}]) == 1})
	}
	sort.Slice(rank, func(i, j int) bool {
		if rank[i].constant != rank[j].constant {
			return rank[i].constant
		}
		if rank[i].n != rank[j].n {
			return rank[i].n > rank[j].n
		}
		a, b := rank[i].t, rank[j].t
		return a.typ+a.path+a.value < b.typ+b.path+b.value
	})
	fmt.Printf("%d cases, %d undeclared top-level triples, %d labelled triples\n", len(cases), len(rank), len(labels))
	fmt.Println("cases  constant  type  path  value")
	for i, r := range rank {
		if i >= top {
			break
		}
		v := r.t.value
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Printf("%5d  %-8v  %s  %s  %s\n", r.n, r.constant, r.t.typ, r.t.path, v)
	}

	var rows []classify.KnownValue
	for t, tiers := range labels {
		if tiers[drift.Undeclared] > 0 {
			continue
		}
		tier, n := drift.AtDefault, tiers[drift.AtDefault]
		if tiers[drift.Generated] > n {
			tier, n = drift.Generated, tiers[drift.Generated]
		}
		rows = append(rows, classify.KnownValue{Type: t.typ, Path: t.path, Tier: tier.String(), Value: t.value, Cases: n})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Value < b.Value
	})
	fmt.Printf("%d known values (atDefault/generated) for %d-case corpus\n", len(rows), len(cases))
	if write == "" {
		return nil
	}
	f, err := os.Create(write)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
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
