package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/patience-gym/patience/internal/version"
)

var versionCmd = &command{
	name:    "version",
	summary: "the release of patience, and the Go it was built with",
	long: "Prints the release of patience (a semantic version: docs/stability.md says what a 1.x\n" +
		"release keeps) and the Go version and platform of this build.",
	run: runVersion,
}

func runVersion(ctx context.Context, inv *invocation, args []string) error {
	if err := parseNone(inv, inv.flags(), args); err != nil {
		return err
	}
	_, err := fmt.Fprintf(inv.stdout, "patience %s (%s, %s/%s)\n", version.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
