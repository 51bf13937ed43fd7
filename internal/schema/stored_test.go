package schema_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/schema"
)

func TestSnapshotRoundTrip(t *testing.T) {
	snap := embedded(t)
	types := map[string]schema.Facts{}
	for _, name := range []string{"AWS::S3::Bucket", "AWS::Lambda::Function", "AWS::IAM::Role", "AWS::EC2::SecurityGroup", "AWS::SES::ReceiptRule"} {
		f, ok := snap.Lookup(name)
		if !ok {
			t.Fatalf("%s not in the snapshot", name)
		}
		types[name] = *f
	}
	src := schema.Source{Package: "p", Version: "1", Integrity: "sha512-x"}
	var a, b bytes.Buffer
	if err := schema.WriteSnapshot(&a, src, types); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteSnapshot(&b, src, types); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of the same snapshot differ")
	}
	back, err := schema.ReadSnapshot(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(back.Source(), src); diff != "" {
		t.Errorf("source (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(back.Types(), []string{"AWS::EC2::SecurityGroup", "AWS::IAM::Role", "AWS::Lambda::Function", "AWS::S3::Bucket", "AWS::SES::ReceiptRule"}); diff != "" {
		t.Errorf("types (-got +want):\n%s", diff)
	}
	for name, want := range types {
		got, _ := back.Lookup(name)
		if diff := cmp.Diff(got, &want); diff != "" {
			t.Errorf("%s (-got +want):\n%s", name, diff)
		}
	}
}

func TestReadSnapshotRejectsGarbage(t *testing.T) {
	for _, in := range [][]byte{nil, []byte("not gzip"), {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}} {
		if _, err := schema.ReadSnapshot(bytes.NewReader(in)); err == nil {
			t.Errorf("ReadSnapshot(%q) gave no error", in)
		}
	}
}
