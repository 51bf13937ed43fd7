package sandbox_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// BenchmarkGetResource measures one Cloud Control read through the SDK and
// the sandbox over loopback HTTP.
func BenchmarkGetResource(b *testing.B) {
	w := sandboxtest.LoadWorld(b, "testdata/world.json")
	srv, err := sandbox.New(w, sandbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	hs := newBenchServer(b, srv)
	cc := cloudcontrol.NewFromConfig(cfg(hs, mgmtKey, "us-east-1"))
	in := &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL)}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := cc.GetResource(b.Context(), in); err != nil {
				b.Error(err)
				return
			}
		}
	})
	if st := srv.Calls(); len(st.Recent) == 0 {
		b.Error("no call logged")
	}
}
