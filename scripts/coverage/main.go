// Command coverage prints realdrift's reader coverage per resource type —
// reader (Cloud Control, override, supplement), identifier adapter, child
// enumerator, revert writer — and totals against the anchor's type lists
// (cdk-real-drift's typeLists in ../shared/knowledge/cdkrd-facts.json).
//
//	go run ./scripts/coverage [-facts PATH] [-missing]
//
// Run through scripts/coverage.sh.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/realdrift/realdrift/internal/live"
)

func main() {
	factsPath := flag.String("facts", "../shared/knowledge/cdkrd-facts.json", "the anchor's facts file (typeLists)")
	missing := flag.Bool("missing", false, "also list the anchor's types each table still lacks")
	flag.Parse()
	lists, err := load(*factsPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "coverage:", err)
		os.Exit(2)
	}
	report(os.Stdout, live.Tables(), lists, *missing)
}

func load(path string) (map[string][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		TypeLists map[string][]string `json:"typeLists"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f.TypeLists, nil
}

func set(ss []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		m[s] = true
	}
	return m
}

func report(w io.Writer, c live.Coverage, lists map[string][]string, missing bool) {
	over, sup, adp, enum := set(c.Overrides), set(c.Supplements), set(c.Adapters), set(c.Enumerated)
	wr := map[string][]string{}
	for _, e := range c.Writers {
		typ, prop, _ := strings.Cut(e, ".")
		if prop == "" {
			prop = "*"
		}
		wr[typ] = append(wr[typ], prop)
	}
	for _, d := range c.Deleters {
		wr[d] = append(wr[d], "delete")
	}
	all := map[string]bool{}
	for _, m := range []map[string]bool{over, sup, adp, enum} {
		for t := range m {
			all[t] = true
		}
	}
	for t := range wr {
		all[t] = true
	}
	for _, name := range []string{"SDK_OVERRIDES", "SDK_SUPPLEMENTS", "CC_IDENTIFIER_ADAPTERS", "CHILD_ENUMERATORS"} {
		for _, t := range lists[name] {
			all[t] = true
		}
	}
	types := make([]string, 0, len(all))
	for t := range all {
		types = append(types, t)
	}
	sort.Strings(types)

	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TYPE\tREADER\tADAPTER\tENUMERATOR\tWRITER")
	for _, t := range types {
		reader := "cloudcontrol"
		switch {
		case over[t]:
			reader = "override"
		case sup[t]:
			reader = "cloudcontrol+supplement"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t, reader, yes(adp[t]), yes(enum[t]), strings.Join(wr[t], ","))
	}
	tw.Flush()

	fmt.Fprintln(w)
	total := func(label, list string, have map[string]bool) {
		n := 0
		var lack []string
		for _, t := range lists[list] {
			if have[t] {
				n++
			} else {
				lack = append(lack, t)
			}
		}
		fmt.Fprintf(w, "%-22s %3d / %3d of %s (%d registered in all)\n", label, n, len(lists[list]), list, len(have))
		if missing && len(lack) > 0 {
			sort.Strings(lack)
			fmt.Fprintf(w, "    missing: %s\n", strings.Join(lack, " "))
		}
	}
	total("override readers", "SDK_OVERRIDES", over)
	total("supplements", "SDK_SUPPLEMENTS", sup)
	total("identifier adapters", "CC_IDENTIFIER_ADAPTERS", adp)
	total("enumerated parents", "CHILD_ENUMERATORS", enum)
	writers := map[string]bool{}
	for t := range wr {
		writers[t] = true
	}
	total("sdk writers", "SDK_WRITERS", writers)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}
