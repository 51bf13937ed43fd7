//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package cli

import "os"

// IsTerminal reports false where realdrift cannot ask the terminal driver:
// prompts and colour are then never offered (the safe side for automation).
func IsTerminal(f *os.File) bool { return false }
