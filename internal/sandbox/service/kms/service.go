package kms

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service is the service's registration: its wire facts and operations.
func Service() *wire.Service {
	return wire.JSON("kms", "1.1", "TrentService.", wire.Ops{
		"ListAliases": kmsListAliases,
	})
}
