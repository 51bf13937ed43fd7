// Command cpuhog keeps CPUs busy so a test run can be tried under load
// (scripts/test-under-load.sh). It spins -workers goroutines (default: one
// per CPU) on arithmetic that never blocks, and stops by itself after -for
// (default 30m) or at SIGINT/SIGTERM, whichever comes first: a hog left
// behind by a killed script still ends.
//
//	go run ./scripts/cpuhog [-workers N] [-for DURATION]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"
)

func main() {
	workers := flag.Int("workers", runtime.NumCPU(), "goroutines spinning, each on one CPU")
	limit := flag.Duration("for", 30*time.Minute, "stop after this long")
	flag.Parse()
	if *workers < 1 || *limit <= 0 {
		fmt.Fprintln(os.Stderr, "cpuhog: -workers wants at least 1 and -for a positive duration")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *limit)
	defer cancel()
	runtime.GOMAXPROCS(*workers)
	// Each worker leaves its result where main can see it, so the compiler
	// cannot drop the work.
	sums := make([]uint64, *workers)
	var wg sync.WaitGroup
	for i := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i] = spin(ctx)
		}()
	}
	wg.Wait()
}

// spin burns CPU until ctx ends, looking at ctx only every few million
// steps so the check costs nothing.
func spin(ctx context.Context) uint64 {
	x := uint64(1)
	for ctx.Err() == nil {
		for range 1 << 22 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}
