package main

import (
	"fmt"
	"strconv"
	"strings"
)

// thousands formats n with separators: 1,234,567.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// bytesText formats a size: 4.7 MiB.
func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// indent puts pre before every line of s.
func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return pre + strings.Join(lines, "\n"+pre)
}

// commandLine joins args as a POSIX shell reads them back, single-quoting
// the ones that need it.
func commandLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]{}~#!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// rate formats steps per second as "2.41 M".
func rate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2f M", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1f k", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// count gives n with its noun, singular for one: count(1, "worker") is
// "1 worker", count(2, "worker") is "2 workers".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
