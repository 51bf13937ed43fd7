//go:build !unix

package cli

import "os"

// holdTemp: without flock a living writer cannot be told from a dead
// one, so nothing is claimed (claimTemp) and dead writers' files stay.
func holdTemp(tmp *os.File) bool { return true }

func claimTemp(p string) (release func(), ok bool) { return nil, false }
