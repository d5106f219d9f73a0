//go:build !unix

package deals

// cpuTime returns 0 where the processor time is not measured: timings are
// then all 0.
func cpuTime() float64 { return 0 }
