//go:build pgfault

package main

/*
#include <stdint.h>
*/
import "C"

import "github.com/patience-gym/patience/internal/faultgame"

// This file is compiled only with the build tag pgfault, which the Python
// package's build (setup.py) and the wheels never set: the library they
// ship has neither the game "faulty" nor these functions. The Python tests
// build a library with the tag to prove that a Go panic comes back as an
// exception and the process lives on.

// fault arms the panics of the game "faulty" (Limited's rules).
var fault = faultgame.Register("faulty", "limited")

// pg_test_fault makes the next step of an environment of the game "faulty"
// playing the given deal panic, once.
//
//export pg_test_fault
func pg_test_fault(deal C.uint64_t) { fault.Arm(uint64(deal)) }

// pg_test_panic panics inside a call on handle id, outside the vector (as
// a bug in this package would).
//
//export pg_test_panic
func pg_test_panic(id C.int64_t) C.int64_t {
	return onHandle(id, func(*handle) C.int64_t { panic("pg_test_panic: a panic in the C boundary itself") })
}
