package main

import (
	"strconv"
	"strings"
)

// closest returns the name among names nearest to s, when it is near enough to be a slip of the
// keyboard: an edit distance (insertions, deletions, substitutions and transpositions of adjacent
// letters, case ignored) of at most 2, and below half the length of s. Ties go to the first name.
func closest(s string, names []string) (string, bool) {
	best, bestDist := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(s), strings.ToLower(n)); d < bestDist && 2*d < len(s) {
			best, bestDist = n, d
		}
	}
	return best, best != ""
}

// didYouMean returns `; did you mean "NAME"?` for the name among names closest to s (closest), or
// "" when none is near.
func didYouMean(s string, names []string) string {
	if n, ok := closest(s, names); ok {
		return "; did you mean " + strconv.Quote(n) + "?"
	}
	return ""
}

// editDistance returns the optimal string alignment distance between a and b, in bytes.
func editDistance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
