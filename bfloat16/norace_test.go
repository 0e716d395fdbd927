//go:build !race

package bfloat16_test

const raceEnabled = false
