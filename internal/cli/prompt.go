package cli

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxChoices bounds how many lines a prompt re-asks before giving up.
const maxChoices = 5

// chooseItems shows items numbered from 1 and reads the user's choice from
// r: numbers and ranges ("1 3-5", commas allowed), "a" for all, an empty
// line for none. An invalid answer is asked again a few times; end of
// input is none. It returns the chosen indexes in order.
func chooseItems(w io.Writer, r *bufio.Reader, title string, items []string) ([]int, error) {
	fmt.Fprintln(w, title)
	for i, it := range items {
		fmt.Fprintf(w, "  %3d  %s\n", i+1, it)
	}
	for range maxChoices {
		fmt.Fprint(w, "Enter numbers (e.g. 1 3-5), 'a' for all, empty for none: ")
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			if err == io.EOF {
				fmt.Fprintln(w)
				return nil, nil
			}
			return nil, fmt.Errorf("read answer: %w", err)
		}
		picked, perr := parseChoice(strings.TrimSpace(line), len(items))
		if perr == nil {
			return picked, nil
		}
		fmt.Fprintf(w, "%v\n", perr)
	}
	return nil, fmt.Errorf("no valid answer after %d tries", maxChoices)
}

// parseChoice parses an answer for n items.
func parseChoice(s string, n int) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	if strings.EqualFold(s, "a") || strings.EqualFold(s, "all") {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number or range", f)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("%q is not a number or range", f)
			}
		}
		if a < 1 || b > n || a > b {
			return nil, fmt.Errorf("%q is out of range 1-%d", f, n)
		}
		for i := a; i <= b; i++ {
			if !seen[i-1] {
				seen[i-1] = true
				out = append(out, i-1)
			}
		}
	}
	return out, nil
}
