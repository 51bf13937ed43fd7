package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
)

const completionSynopsis = `bash|zsh|fish

Prints a completion script for the shell: every verb, each verb's flags,
the sub-verbs of sandbox, schema and baseline, check's --format values, and
the region's stack names for the verbs that take stacks (listed by
"realdrift completion stacks" when AWS credentials are present, within 3
seconds; nothing otherwise). Load it with:
  bash:  source <(realdrift completion bash)
  zsh:   realdrift completion zsh > "${fpath[1]}/_realdrift"
  fish:  realdrift completion fish > ~/.config/fish/completions/realdrift.fish`

func runCompletion(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "completion", completionSynopsis)
	if done, code := parse(s, fs, args); done {
		return code
	}
	if fs.Arg(0) == "stacks" {
		return runCompleteStacks(ctx, s, fs.Args()[1:])
	}
	if fs.NArg() != 1 {
		return fail(s, "completion", errors.New("name one shell: bash, zsh or fish"))
	}
	verbs := verbFlags()
	var err error
	switch sh := fs.Arg(0); sh {
	case "bash":
		err = writeBash(s.Stdout, verbs)
	case "zsh":
		err = writeZsh(s.Stdout, verbs)
	case "fish":
		err = writeFish(s.Stdout, verbs)
	default:
		return fail(s, "completion", fmt.Errorf("unknown shell %q: bash, zsh or fish%s", sh, didYouMean(sh, []string{"bash", "zsh", "fish"})))
	}
	if err != nil {
		return fail(s, "completion", err)
	}
	return ExitOK
}

// verbFlag is one flag of a verb as its help prints it.
type verbFlag struct{ name, usage string }

// verbInfo is a verb and its flags.
type verbInfo struct {
	name, summary string
	flags         []verbFlag
}

// helpFlag matches a flag line of printDefaults: "  --name [type]".
var helpFlag = regexp.MustCompile(`^  --?([A-Za-z0-9][A-Za-z0-9-]*)`)

// helpAlias matches the long name beside a short one: "  -o, --output".
var helpAlias = regexp.MustCompile(`^  -[A-Za-z0-9], --([A-Za-z0-9][A-Za-z0-9-]*)`)

// verbFlags asks every verb for its help (which does no I/O) and reads
// the flags from it, so completion never drifts from the flags.
func verbFlags() []verbInfo {
	var out []verbInfo
	for _, c := range commands() {
		if c.name == "completion" {
			continue
		}
		var buf bytes.Buffer
		var stdout io.Writer = &buf
		if c.output {
			stdout = &redirect{w: &buf} // so its help lists -o, as Run gives it
		}
		c.run(context.Background(), IO{Stdout: stdout, Stderr: io.Discard}, []string{"--help"})
		v := verbInfo{name: c.name, summary: c.summary}
		lines := strings.Split(buf.String(), "\n")
		for i, l := range lines {
			m := helpFlag.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			u := ""
			if i+1 < len(lines) {
				u = strings.TrimSpace(lines[i+1])
			}
			v.flags = append(v.flags, verbFlag{m[1], u})
			if alias := helpAlias.FindStringSubmatch(l); alias != nil {
				v.flags = append(v.flags, verbFlag{alias[1], u})
			}
		}
		out = append(out, v)
	}
	out = append(out, verbInfo{name: "completion", summary: "print a shell completion script"})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// verbValues is one flag's completion values.
type verbValues struct {
	verb, flag string
	values     []string
}

// sortedValues lists flagValues in a stable order.
func sortedValues() []verbValues {
	var out []verbValues
	for verb, flags := range flagValues() {
		for flag, vals := range flags {
			out = append(out, verbValues{verb, flag, vals})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].verb+" "+out[i].flag < out[j].verb+" "+out[j].flag
	})
	return out
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func writeBash(w io.Writer, verbs []verbInfo) error {
	var b strings.Builder
	names := make([]string, len(verbs))
	for i, v := range verbs {
		names[i] = v.name
	}
	b.WriteString("# bash completion for realdrift (realdrift completion bash)\n_realdrift() {\n")
	b.WriteString("  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	b.WriteString("  if [ \"$COMP_CWORD\" -eq 1 ]; then\n")
	fmt.Fprintf(&b, "    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", strings.Join(names, " ")+" help --version --help")
	b.WriteString("  case \"${COMP_WORDS[1]} $prev\" in\n")
	for _, vf := range sortedValues() {
		fmt.Fprintf(&b, "    %q) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", vf.verb+" --"+vf.flag, strings.Join(vf.values, " "))
	}
	b.WriteString("  esac\n  if [ \"$COMP_CWORD\" -eq 2 ]; then\n    case \"${COMP_WORDS[1]}\" in\n")
	for _, v := range verbs {
		if sub := subVerbs()[v.name]; len(sub) > 0 {
			fmt.Fprintf(&b, "      %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", v.name, strings.Join(sub, " "))
		}
	}
	b.WriteString("    esac\n  fi\n")
	b.WriteString("  case \"${COMP_WORDS[1]}\" in\n")
	for _, v := range verbs {
		var fl []string
		for _, f := range v.flags {
			fl = append(fl, dashed(f.name))
		}
		switch v.name {
		case "completion":
			fl = append(fl, "bash", "zsh", "fish")
		}
		stacks := ""
		if slices.Contains(stackVerbs(), v.name) {
			stacks = ` $([[ "$cur" == -* ]] || realdrift completion stacks 2>/dev/null)`
		}
		fmt.Fprintf(&b, "    %s) COMPREPLY=($(compgen -W \"%s%s\" -- \"$cur\")) ;;\n", v.name, strings.Join(fl, " "), stacks)
	}
	fmt.Fprintf(&b, "    help) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", strings.Join(names, " "))
	b.WriteString("  esac\n}\ncomplete -o default -F _realdrift realdrift\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// zshQuote quotes s for a single-quoted zsh word.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func writeZsh(w io.Writer, verbs []verbInfo) error {
	var b strings.Builder
	b.WriteString("#compdef realdrift\n# zsh completion for realdrift (realdrift completion zsh)\n_realdrift() {\n  local -a verbs\n  verbs=(\n")
	for _, v := range verbs {
		fmt.Fprintf(&b, "    %s\n", zshQuote(v.name+":"+strings.ReplaceAll(v.summary, ":", `\:`)))
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' verbs\n    return\n  fi\n")
	b.WriteString("  case \"$words[2] $words[CURRENT-1]\" in\n")
	for _, vf := range sortedValues() {
		vals := make([]string, len(vf.values))
		for i, x := range vf.values {
			vals[i] = zshQuote(x)
		}
		fmt.Fprintf(&b, "    %s) compadd -- %s; return ;;\n", zshQuote(vf.verb+" --"+vf.flag), strings.Join(vals, " "))
	}
	b.WriteString("  esac\n  if (( CURRENT == 3 )); then\n    case $words[2] in\n")
	for _, v := range verbs {
		if sub := subVerbs()[v.name]; len(sub) > 0 {
			fmt.Fprintf(&b, "      %s) compadd -- %s; return ;;\n", v.name, strings.Join(sub, " "))
		}
	}
	b.WriteString("    esac\n  fi\n  case $words[2] in\n")
	for _, v := range verbs {
		var fl []string
		for _, f := range v.flags {
			fl = append(fl, zshQuote(dashed(f.name)))
		}
		if v.name == "completion" {
			fl = append(fl, "bash", "zsh", "fish")
		}
		stacks := ""
		if slices.Contains(stackVerbs(), v.name) {
			stacks = `; [[ $PREFIX == -* ]] || compadd -- ${(f)"$(realdrift completion stacks 2>/dev/null)"}`
		}
		fmt.Fprintf(&b, "    %s) compadd -- %s%s; _files ;;\n", v.name, strings.Join(fl, " "), stacks)
	}
	b.WriteString("    help) _describe 'command' verbs ;;\n  esac\n}\ncompdef _realdrift realdrift 2>/dev/null || true\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// fishQuote quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func writeFish(w io.Writer, verbs []verbInfo) error {
	var b strings.Builder
	b.WriteString("# fish completion for realdrift (realdrift completion fish)\ncomplete -c realdrift -f\n")
	for _, v := range verbs {
		fmt.Fprintf(&b, "complete -c realdrift -n __fish_use_subcommand -a %s -d %s\n", v.name, fishQuote(v.summary))
	}
	for _, v := range verbs {
		for _, f := range v.flags {
			opt := "-l " + f.name
			if len(f.name) == 1 {
				opt = "-s " + f.name
			}
			if vals := flagValues()[v.name][f.name]; len(vals) > 0 {
				opt += " -x -a " + fishQuote(strings.Join(vals, " "))
			}
			fmt.Fprintf(&b, "complete -c realdrift -n '__fish_seen_subcommand_from %s' %s -d %s\n", v.name, opt, fishQuote(f.usage))
		}
		if sub := subVerbs()[v.name]; len(sub) > 0 {
			list := strings.Join(sub, " ")
			fmt.Fprintf(&b, "complete -c realdrift -n '__fish_seen_subcommand_from %s; and not __fish_seen_subcommand_from %s' -a %s\n", v.name, list, fishQuote(list))
		}
		if slices.Contains(stackVerbs(), v.name) {
			fmt.Fprintf(&b, "complete -c realdrift -n '__fish_seen_subcommand_from %s' -a '(realdrift completion stacks 2>/dev/null)'\n", v.name)
		}
	}
	b.WriteString("complete -c realdrift -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	_, err := io.WriteString(w, b.String())
	return err
}
