// Command compare prints the per-pair table of scripts/diff-vs-cdk.sh:
// for each pair directory under its argument, whether realdrift's diff and
// cdk diff agree, and if not which one the pair's note says is right. It
// exits 1 when a pair disagrees with no note or with cdk right.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/realdrift/realdrift/internal/diff/vscdk"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compare PAIRS_DIR")
		os.Exit(2)
	}
	dirs, err := filepath.Glob(filepath.Join(os.Args[1], "*", "cdk.txt"))
	if err != nil || len(dirs) == 0 {
		fmt.Fprintf(os.Stderr, "compare: no pairs with a cdk.txt under %s\n", os.Args[1])
		os.Exit(2)
	}
	sort.Strings(dirs)
	var outs []vscdk.Outcome
	bad := false
	for _, f := range dirs {
		o, err := vscdk.Compare(filepath.Dir(f))
		if err != nil {
			fmt.Fprintf(os.Stderr, "compare: %v\n", err)
			os.Exit(2)
		}
		bad = bad || o.Verdict == vscdk.Unexplained || o.Verdict == vscdk.CDKRight
		outs = append(outs, o)
	}
	fmt.Print(vscdk.Table(outs))
	if bad {
		os.Exit(1)
	}
}
