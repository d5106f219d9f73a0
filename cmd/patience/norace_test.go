//go:build !race

package main

// raceEnabled reports that the race detector slows everything down.
const raceEnabled = false
