package normalize

// ForCompare returns a canonical copy of v for comparing two values recorded
// at different times (a baseline entry and a live value): identity-keyed
// object arrays (tags and the like) and id / ARN arrays are put in a stable
// order. Both the CLI and the service apply baselines with it, so a value
// recorded under one order compares equal under another. v is not modified.
func ForCompare(v any) any {
	c := Clone(v)
	SortIdentityArrays(c)
	SortIDArrays(c)
	return c
}
