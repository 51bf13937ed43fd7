// Package schema holds the CloudFormation registry schema facts realdrift
// needs per resource type: identifiers, read-only / write-only / create-only
// paths, defaults, unordered arrays, free-form maps, property transforms,
// tagging and Cloud Control handlers.
//
// Facts is the shared shape; its first fields decode the golden corpus's
// "schema" object directly.
package schema
