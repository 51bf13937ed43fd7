package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxChoices bounds how many lines a prompt re-asks before giving up.
const maxChoices = 5

// answers reads a person's answers to prompts, one line at a time. A read
// ends as soon as ctx is done (SIGINT, SIGTERM), whatever the terminal
// does: no prompt outlives an interrupt. One read at a time is in flight;
// a read left behind by an interrupt is taken up by the next call.
type answers struct {
	r       *bufio.Reader
	pending chan lineRead // the read in flight, nil when none
}

// lineRead is what one read of a line gave.
type lineRead struct {
	line string
	err  error
}

// newAnswers reads answers from r.
func newAnswers(r io.Reader) *answers {
	return &answers{r: bufio.NewReader(r)}
}

// line reads the next line (with its newline, as bufio.Reader.ReadString
// gives it), or returns ctx's error as soon as ctx is done.
func (a *answers) line(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if a.pending == nil {
		ch := make(chan lineRead, 1)
		a.pending = ch
		go func() {
			l, err := a.r.ReadString('\n')
			ch <- lineRead{l, err}
		}()
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case got := <-a.pending:
		a.pending = nil
		return got.line, got.err
	}
}

// chooseItems shows items numbered from 1 and reads the user's choice from
// r: numbers and ranges ("1 3-5", commas allowed), "a" for all, an empty
// line for none. An invalid answer is asked again a few times; end of
// input is none, an interrupt ctx's error. It returns the chosen indexes in
// order.
func chooseItems(ctx context.Context, w io.Writer, r *answers, title string, items []string) ([]int, error) {
	fmt.Fprintln(w, title)
	for i, it := range items {
		fmt.Fprintf(w, "  %3d  %s\n", i+1, it)
	}
	for range maxChoices {
		fmt.Fprint(w, "Enter numbers (e.g. 1 3-5), 'a' for all, empty for none: ")
		line, err := r.line(ctx)
		if ctx.Err() != nil {
			fmt.Fprintln(w)
			return nil, ctx.Err()
		}
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

// interruption is a verb ended at a prompt by SIGINT or SIGTERM; its
// message says what was and was not done by then.
type interruption struct {
	done string
	err  error
}

func (e *interruption) Error() string { return "interrupted at the prompt — " + e.done }
func (e *interruption) Unwrap() error { return e.err }

// interruptedAt is the interruption of ctx with what was done by then.
func interruptedAt(ctx context.Context, done string) error {
	return &interruption{done: done, err: ctx.Err()}
}

// sayInterrupted prints err's interruption (what was and was not done) on
// stderr as verb's, and reports whether err was one.
func sayInterrupted(s IO, verb string, err error) bool {
	var in *interruption
	if !errors.As(err, &in) {
		return false
	}
	fmt.Fprintf(s.Stderr, "realdrift %s: %s\n", verb, in.Error())
	return true
}
