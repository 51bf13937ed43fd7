package store

import (
	"fmt"

	"github.com/realdrift/realdrift/internal/drift"
)

// maxNameLen bounds every validated name.
const maxNameLen = 256

// validName accepts names that are safe as file names and key segments:
// ASCII letters, digits and . _ : - , starting with a letter or digit. The
// '#' key separator and path separators are never allowed.
func validName(what, s string) error {
	if s == "" {
		return fmt.Errorf("%w: empty %s", ErrInvalid, what)
	}
	if len(s) > maxNameLen {
		return fmt.Errorf("%w: %s longer than %d bytes", ErrInvalid, what, maxNameLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == ':' || c == '-'):
		default:
			return fmt.Errorf("%w: %s %q: character %q not allowed", ErrInvalid, what, s, c)
		}
	}
	return nil
}

// validStack checks the three parts of a stack reference. Stack names must
// not contain '.', which separates the parts of a baseline file name.
func validStack(s drift.StackRef) error {
	if err := validName("stack name", s.Name); err != nil {
		return err
	}
	if err := validName("account", s.Account); err != nil {
		return err
	}
	if err := validName("region", s.Region); err != nil {
		return err
	}
	for _, p := range []string{s.Name, s.Account, s.Region} {
		for i := 0; i < len(p); i++ {
			if p[i] == '.' || p[i] == ':' {
				return fmt.Errorf("%w: stack %s: %q not allowed", ErrInvalid, s, p[i])
			}
		}
	}
	return nil
}

// validScope checks an ignore-rules scope; the empty scope is the default.
func validScope(scope string) error {
	if scope == "" {
		return nil
	}
	return validName("ignore scope", scope)
}

// validPhysicalID rejects an empty physical id; any other string is allowed
// (it is hashed into file names and used whole as a key).
func validPhysicalID(id string) error {
	if id == "" {
		return fmt.Errorf("%w: empty physical id", ErrInvalid)
	}
	if len(id) > 1024 {
		return fmt.Errorf("%w: physical id longer than 1024 bytes", ErrInvalid)
	}
	return nil
}

// stackFile is the file-name stem of a stack: <stack>.<account>.<region>.
func stackFile(s drift.StackRef) string { return s.Name + "." + s.Account + "." + s.Region }
