// Package schema holds the CloudFormation registry schema facts realdrift
// needs per resource type: identifiers, read-only / write-only / create-only
// paths, defaults, unordered arrays, free-form map paths, property
// transforms, tagging and Cloud Control handlers.
//
// Facts is the shared shape; its first fields decode the golden corpus's
// "schema" object directly.
//
// Sources. FromRegistry (and ParseRegistry) extract Facts from one raw
// provider schema document. Embedded returns the snapshot compiled into the
// binary, generated from a pinned registry-schema package by
// scripts/gen-schema (go generate ./internal/schema/); the generated header
// snapshot_gen.go records the package name, version, integrity and the
// snapshot's SHA-256, which is checked on load. Registry serves facts at run
// time: CloudFormation DescribeType wins over the snapshot per type, cached
// for the life of the Registry (one run), with the snapshot as fallback.
//
// Extraction rules (they follow the golden corpus's conventions, since the
// classifier was tuned on them):
//   - Paths are dotted from the resource's properties, "*" for any array
//     item: "/properties/A/B/*/C" becomes "A.B.*.C".
//   - ReadOnly, WriteOnly and CreateOnly are the top-level entries of the
//     corresponding path lists. conditionalCreateOnlyProperties are kept
//     apart in ConditionalCreateOnlyPaths, never merged into CreateOnly.
//   - The walk starts at /properties, follows "#/definitions/..." references
//     (a reference already being walked is not entered again) and visits
//     every oneOf/anyOf/allOf member at the node's own path.
//   - DefaultPaths holds every default at any depth, Defaults the top-level
//     ones. A default of the wrong JSON type is coerced when the text parses
//     as the property's type ("true" on a boolean becomes true) and dropped
//     otherwise; a default written beside a $ref is not taken.
//   - Unordered arrays are those marked insertionOrder: false, not below an
//     array item, split into scalar items and object items; object items
//     with an identity field (Key, Id, Name, AttributeName, IndexName) and
//     any Tags property are left out, since they are aligned by identity.
//   - Free-form maps are object nodes with no fixed properties and either
//     patternProperties or an object-valued additionalProperties; a node that
//     may also be a string, and any Tags property, are left out.
//   - Taggable is the schema's tagging.taggable (or legacy top-level
//     taggable), true when absent; Handlers lists the handlers present in
//     the order create, read, update, delete, list.
//
// Facts handed out are copies: callers may change them freely. Nothing in
// this package logs, prints or panics.
package schema
