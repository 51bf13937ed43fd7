package cli

import "strings"

// suggest returns the candidate closest to got when it is close enough to
// be a typo ("did you mean"), "" otherwise.
func suggest(got string, candidates []string) string {
	best, bestD := "", 0
	for _, c := range candidates {
		d := editDistance(strings.ToLower(got), strings.ToLower(c))
		if best == "" || d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(1, min(3, len(got)/3)) {
		if best != "" && strings.HasPrefix(strings.ToLower(best), strings.ToLower(got)) && len(got) >= 3 {
			return best
		}
		return ""
	}
	return best
}

// didYouMean is " (did you mean X?)" or "".
func didYouMean(got string, candidates []string) string {
	if s := suggest(got, candidates); s != "" && s != got {
		return " (did you mean " + s + "?)"
	}
	return ""
}

// editDistance is the Levenshtein distance with transpositions counted
// as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
