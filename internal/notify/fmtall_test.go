package notify

import "fmt"

// fmtAll formats v with every common verb.
func fmtAll(v any) []string {
	return []string{fmt.Sprint(v), fmt.Sprintf("%v", v), fmt.Sprintf("%+v", v), fmt.Sprintf("%#v", v), fmt.Sprintf("%s", v)}
}
