// Package world is the sandbox's one in-memory AWS organisation: the world
// file's types (World, Account, Region, Stack, Resource), its loader and
// validator (ParseWorld, LoadWorld), the State that indexes it by Cloud
// Control identifier and by type under one RWMutex, the principals access
// keys act as, the policies (compiled here and decided by one evaluator,
// Evaluate): the accounts' identity policies, their roles' trust policies
// and the organization's service control policies; and the helpers every
// service uses to read and write one top-level field of a live model while
// keeping the other fields' bytes.
//
// Rules:
//   - Every State method expects the caller to hold the State's lock: the
//     read lock for lookups, the write lock for changes. Handlers take it
//     themselves and hold it for the whole operation.
//   - A live model is the JSON object Cloud Control returns; the service
//     APIs read and write those same models, never a copy.
//   - The package knows no wire protocol and no service: services import
//     it, it imports neither them nor package wire.
//   - It never panics on input, prints or exits.
package world
