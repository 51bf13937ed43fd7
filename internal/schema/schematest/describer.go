// Package schematest provides a hand-written stand-in for the CloudFormation
// DescribeType call that schema.Registry makes.
package schematest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// ErrTypeNotFound is what Describer answers for a type it was not given,
// standing in for the service's TypeNotFoundException.
var ErrTypeNotFound = &cfntypes.TypeNotFoundException{Message: stringPtr("type not found")}

// Describer answers DescribeType from a fixed set of schema documents.
// Set Gate to hold every call until it is closed. It is safe for
// concurrent use.
type Describer struct {
	// Schemas maps a type name to the raw schema document to answer with.
	Schemas map[string]string
	// Errs maps a type name to the error to answer with.
	Errs map[string]error
	// Gate, when non-nil, blocks each call until it is closed or the
	// call's context ends.
	Gate chan struct{}

	mu    sync.Mutex
	calls map[string]int
}

// DescribeType answers like the CloudFormation API.
func (d *Describer) DescribeType(ctx context.Context, in *cloudformation.DescribeTypeInput, _ ...func(*cloudformation.Options)) (*cloudformation.DescribeTypeOutput, error) {
	if in == nil || in.TypeName == nil {
		return nil, errors.New("schematest: DescribeType needs a TypeName")
	}
	if in.Type != cfntypes.RegistryTypeResource {
		return nil, fmt.Errorf("schematest: DescribeType Type %q, want RESOURCE", in.Type)
	}
	name := *in.TypeName
	d.mu.Lock()
	if d.calls == nil {
		d.calls = map[string]int{}
	}
	d.calls[name]++
	d.mu.Unlock()
	if d.Gate != nil {
		select {
		case <-d.Gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err, ok := d.Errs[name]; ok {
		return nil, err
	}
	doc, ok := d.Schemas[name]
	if !ok {
		return nil, ErrTypeNotFound
	}
	return &cloudformation.DescribeTypeOutput{
		TypeName: &name,
		Type:     cfntypes.RegistryTypeResource,
		Schema:   &doc,
	}, nil
}

// Calls returns how many times typeName was asked for.
func (d *Describer) Calls(typeName string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls[typeName]
}

func stringPtr(s string) *string { return &s }
