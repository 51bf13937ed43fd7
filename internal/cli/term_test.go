package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIsTerminalNotCharDevice: /dev/null is a character device but no
// terminal; a pipe and a regular file are not terminals either (cron,
// systemd and `< /dev/null` runs are non-interactive).
func TestIsTerminalNotCharDevice(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if fi, err := null.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is not a character device here (%v)", os.DevNull, err)
	}
	if IsTerminal(null) {
		t.Errorf("IsTerminal(%s) = true, want false", os.DevNull)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if IsTerminal(r) || IsTerminal(w) {
		t.Error("IsTerminal(pipe) = true, want false")
	}
	p := filepath.Join(t.TempDir(), "f")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("IsTerminal(regular file) = true, want false")
	}
	if IsTerminal(nil) {
		t.Error("IsTerminal(nil) = true")
	}
}
