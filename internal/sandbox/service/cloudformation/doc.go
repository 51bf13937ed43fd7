// Package cloudformation is the sandbox's CloudFormation (query/XML;
// SigV4 signing name cloudformation): the world's stacks (DescribeStacks,
// ListStacks, GetTemplate, ListStackResources, DescribeStackResources,
// nested stacks among them), exports and imports, and DescribeType's
// registry schema document synthesised from the schema facts alone
// (world.Schemas). Service says what it serves; the rules are
// internal/sandbox/doc.go's.
package cloudformation
