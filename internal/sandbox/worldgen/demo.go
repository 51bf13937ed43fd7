package worldgen

import (
	"errors"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// Demo builds the demo organisation.
func Demo() (*sandbox.World, error) {
	return nil, errors.New("the demo world is not built yet")
}
