// Package prefetch asks the processor to bring a line of memory into its
// caches ahead of a load, without waiting for it.
//
// A search probes its transposition table at a random place for every
// position it generates; once the table outgrows the caches, each probe
// waits on main memory. Probes asked for together, before the first is
// needed, wait together instead of one after another.
package prefetch
