package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/realdrift/realdrift/internal/scan"
)

// progress is check's live line on a terminal's stderr: stacks done of
// the total, calls made, throttles absorbed, elapsed time. It is redrawn
// in place every tick and cleared before anything else is printed, so a
// report line never shares a line with it; off a terminal it is never
// drawn.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	done  int
	start time.Time
	now   func() time.Time
	stats func() scan.Stats
	drawn bool
	stop  chan struct{}
	ended chan struct{}
}

// startProgress draws the line every tick until end is called.
func startProgress(w io.Writer, total int, stats func() scan.Stats, now func() time.Time, tick time.Duration) *progress {
	p := &progress{w: w, total: total, start: now(), now: now, stats: stats, stop: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(p.ended)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// draw writes the line (p.mu held).
func (p *progress) draw() {
	st := p.stats()
	fmt.Fprintf(p.w, "\r\x1b[Kchecking: %d/%d stacks · %d calls · %d throttled · %.1fs", p.done, p.total, st.Calls, st.Throttled, p.now().Sub(p.start).Seconds())
	p.drawn = true
}

// clear removes the line (p.mu held).
func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// emitted runs print with the line cleared, then counts one stack done.
func (p *progress) emitted(print func()) {
	if p == nil {
		print()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	print()
	p.done++
}

// end stops the line and clears it.
func (p *progress) end() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.ended
	p.mu.Lock()
	p.clear()
	p.mu.Unlock()
}
