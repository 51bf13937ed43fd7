package sandbox_test

import (
	"os"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// FuzzParseWorld: any input is a world or an error, never a panic; a world
// that parses marshals and parses again.
func FuzzParseWorld(f *testing.F) {
	for _, p := range []string{"testdata/world.json", "testdata/services.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","resources":[{"type":"AWS::S3::Bucket","identifier":"b","properties":{}}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := sandbox.ParseWorld(data)
		if err != nil {
			return
		}
		out, err := w.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sandbox.ParseWorld(out); err != nil {
			t.Fatalf("a parsed world does not parse again: %v", err)
		}
		if _, err := sandbox.New(w, sandbox.Options{}); err != nil {
			t.Fatalf("a parsed world does not serve: %v", err)
		}
	})
}
