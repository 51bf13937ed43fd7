package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Audits holds audit items (a revert's: who decided, what each item was
// before and after): written once, never replaced, updated or deleted by
// the store; they end by their expiry. They live apart from run state (the
// AUDIT# partition, a directory of their own), so the roles that write run
// state and findings are granted nothing on them (infra/table.go), and the
// one role that writes them cannot overwrite one: the write is conditional
// on the item not existing.
type Audits interface {
	// PutAudit stores data under id and key, kept until expiresAt; an item
	// already stored there stays as it was and the error wraps ErrExists.
	PutAudit(ctx context.Context, id, key string, data []byte, expiresAt time.Time) error
	// GetAudit returns exactly the bytes put, or an error wrapping
	// ErrNotFound (absent or expired).
	GetAudit(ctx context.Context, id, key string) ([]byte, error)
}

// ErrExists is returned when a write-once item is already stored.
var ErrExists = errors.New("already exists")

// PutAudit implements Audits: a PutItem conditional on the manifest not
// existing.
func (d *Dynamo) PutAudit(ctx context.Context, id, key string, data []byte, expiresAt time.Time) error {
	if err := validState(id, key, expiresAt); err != nil {
		return fmt.Errorf("put audit: %w", err)
	}
	if data == nil {
		data = []byte{}
	}
	_, err := d.putBlob(ctx, blob{pk: pkAudit + id, sk: key, data: data, expires: expiresAt,
		cond: "attribute_not_exists(#pk)", names: map[string]string{"#pk": AttrPK}})
	if _, ok := isConditionFailed(err); ok {
		return fmt.Errorf("put audit %s/%s: %w", id, key, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("put audit %s/%s: %w", id, key, err)
	}
	return nil
}

// GetAudit implements Audits.
func (d *Dynamo) GetAudit(ctx context.Context, id, key string) ([]byte, error) {
	if err := validName("audit id", id); err != nil {
		return nil, fmt.Errorf("get audit: %w", err)
	}
	if err := validName("audit key", key); err != nil {
		return nil, fmt.Errorf("get audit: %w", err)
	}
	data, err := d.getUnexpired(ctx, pkAudit+id, key)
	if err != nil {
		return nil, fmt.Errorf("get audit %s/%s: %w", id, key, err)
	}
	return data, nil
}

func (f *File) auditPath(id, key string) string {
	return filepath.Join(f.dir, "audit", id, key)
}

// PutAudit implements Audits: the file is written aside and linked into
// place, which fails when the name exists.
func (f *File) PutAudit(ctx context.Context, id, key string, data []byte, expiresAt time.Time) error {
	if err := validState(id, key, expiresAt); err != nil {
		return fmt.Errorf("put audit: %w", err)
	}
	buf, err := stateFile(data, expiresAt)
	if err != nil {
		return fmt.Errorf("put audit %s/%s: %w", id, key, err)
	}
	path := f.auditPath(id, key)
	tmp := path + ".new"
	if err := writeAtomic(tmp, buf); err != nil {
		return fmt.Errorf("put audit %s/%s: %w", id, key, err)
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("put audit %s/%s: %w", id, key, ErrExists)
		}
		return fmt.Errorf("put audit %s/%s: %w", id, key, err)
	}
	return nil
}

// GetAudit implements Audits.
func (f *File) GetAudit(ctx context.Context, id, key string) ([]byte, error) {
	if err := validName("audit id", id); err != nil {
		return nil, fmt.Errorf("get audit: %w", err)
	}
	if err := validName("audit key", key); err != nil {
		return nil, fmt.Errorf("get audit: %w", err)
	}
	b, err := f.readState(f.auditPath(id, key))
	if err != nil {
		return nil, fmt.Errorf("get audit %s/%s: %w", id, key, err)
	}
	return b, nil
}
