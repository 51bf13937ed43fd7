package live

import "context"

// supplementReader completes a Cloud Control model with the properties its
// read handler does not return, read through the service's own API. It
// returns only the properties it adds; a property it cannot read is left
// out (a readGap), never guessed.
type supplementReader func(ctx context.Context, c *Clients, r Request, model map[string]any) (map[string]any, error)

// supplements is the one registration table of SDK supplements: types
// Cloud Control reads, but without some properties.
func supplements() map[string]supplementReader {
	return map[string]supplementReader{}
}

// supplement merges the type's supplement into model. A failed supplement
// leaves the model as Cloud Control read it: the missing properties stay
// unread (readGap), the rest is still compared.
func supplement(ctx context.Context, c *Clients, r Request, model map[string]any) map[string]any {
	sup, ok := supplements()[r.Type]
	if !ok || model == nil {
		return model
	}
	add, err := sup(ctx, c, r, model)
	if err != nil {
		return model
	}
	for k, v := range add {
		model[k] = v
	}
	return model
}

// HasSupplement reports whether t's Cloud Control model is completed by an
// SDK supplement.
func HasSupplement(t string) bool {
	_, ok := supplements()[t]
	return ok
}
