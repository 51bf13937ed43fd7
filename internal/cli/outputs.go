package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/report"
	"github.com/realdrift/realdrift/internal/scan"
)

// Several reports of one check run follow driftctl's convention: -o /
// --output is repeatable and each value is FORMAT://FILE (driftctl's
// "--output json://result.json"), so CI runs one check, not one per
// format:
//
//	realdrift check --all --output sarif://drift.sarif --output junit://drift.xml
//
// A value without a scheme is the --format report written to FILE instead
// of stdout (the -o FILE every report verb takes); stdout then carries
// nothing. Every file is written atomically and put in place together when
// the report is whole (exit 0, 1 or 3), else every one is left as it was.

// outputSpec is one -o value: a format and the file it goes to; format ""
// is the --format report.
type outputSpec struct {
	format string
	path   string
}

// outputList is check's repeatable -o / --output.
type outputList []outputSpec

func (l *outputList) String() string {
	if l == nil {
		return ""
	}
	var parts []string
	for _, o := range *l {
		if o.format == "" {
			parts = append(parts, o.path)
		} else {
			parts = append(parts, o.format+"://"+o.path)
		}
	}
	return strings.Join(parts, ",")
}

func (l *outputList) Set(v string) error {
	o := outputSpec{path: v}
	if format, path, ok := strings.Cut(v, "://"); ok {
		if !slices.Contains(checkFormats(), format) {
			return fmt.Errorf("%q: the format must be %s%s", v, strings.Join(checkFormats(), ", "), didYouMean(format, checkFormats()))
		}
		o = outputSpec{format: format, path: path}
	}
	if o.path == "" {
		return fmt.Errorf("%q names no file", v)
	}
	for _, prev := range *l {
		if prev.format == "" && o.format == "" {
			return fmt.Errorf("a plain FILE (the --format report) is given twice: %s and %s", prev.path, o.path)
		}
		if filepath.Clean(prev.path) == filepath.Clean(o.path) {
			return fmt.Errorf("%s is named twice", o.path)
		}
	}
	*l = append(*l, o)
	return nil
}

// primary is the file of the --format report ("" for stdout).
func (l outputList) primary() string {
	for _, o := range l {
		if o.format == "" {
			return o.path
		}
	}
	return ""
}

// extras are the FORMAT://FILE outputs.
func (l outputList) extras() []outputSpec {
	var out []outputSpec
	for _, o := range l {
		if o.format != "" {
			out = append(out, o)
		}
	}
	return out
}

// names lists the files for messages.
func (l outputList) names() string {
	var out []string
	for _, o := range l {
		out = append(out, o.path)
	}
	return strings.Join(out, ", ")
}

// reportInput is what every report format renders from.
type reportInput struct {
	stacks  []report.Stack
	runs    []*stackRun
	partial report.Partial
	stats   scan.Stats
	now     time.Time
	text    report.Options
	// quiet and hideClean leave clean stacks out of a text report.
	quiet, hideClean bool
}

// writeReport renders one format of the run's report to w. The text
// report is written whole here (check streams its stdout one stack at a
// time instead).
func writeReport(w io.Writer, format string, in reportInput) error {
	switch format {
	case "text":
		return writeTextReport(w, in)
	case "json":
		return jsonWithStats(w, in.stacks, in.partial, in.stats)
	case "sarif":
		return report.SARIF(w, in.stacks, report.SARIFOptions{Templates: templatesOf(in.runs), ToolVersion: toolVersion(), Partial: in.partial})
	case "junit":
		return report.JUnitPartial(w, in.stacks, in.partial)
	case "asff":
		return report.ASFFPartial(w, in.stacks, in.now, in.partial)
	case "markdown":
		return report.Markdown(w, in.stacks, report.MarkdownOptions{Options: report.Options{Verbose: in.text.Verbose}, Partial: in.partial})
	}
	return fmt.Errorf("unknown format %q", format)
}

// writeTextReport is the text report of every stack, as check prints it
// one stack at a time, with the total when check prints one.
func writeTextReport(w io.Writer, in reportInput) error {
	shown := 0
	for i := range in.stacks {
		if (in.quiet || in.hideClean) && report.Summarize(in.stacks[i]).Verdict == report.Clean {
			continue
		}
		if shown > 0 {
			fmt.Fprintln(w)
		}
		shown++
		opts := in.text
		opts.Color = false
		if err := report.Text(w, in.stacks[i:i+1], opts); err != nil {
			return err
		}
	}
	if len(in.stacks) > 1 || in.quiet || in.hideClean {
		if shown > 0 {
			fmt.Fprintln(w)
		}
		return report.WriteTotal(w, in.stacks)
	}
	return nil
}

// openOutputs creates the temporary files of the FORMAT://FILE outputs
// (a missing directory is an error before any stack is checked).
func openOutputs(specs []outputSpec) ([]*outputFile, error) {
	var files []*outputFile
	for _, o := range specs {
		f, err := createOutput(o.path)
		if err != nil {
			for _, f := range files {
				f.discard()
			}
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}
