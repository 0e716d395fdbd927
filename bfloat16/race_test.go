//go:build race

package bfloat16_test

// raceEnabled is true under the race detector, which makes the exhaustive test too slow to run whole.
const raceEnabled = true
