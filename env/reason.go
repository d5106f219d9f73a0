package env

import "fmt"

// Reasonf returns an error whose message is fmt.Sprintf(format, args...),
// formatted only when it is read. A game's Explain uses it for the reasons
// it gives: the property checker asks Explain about every action id and
// mostly looks only at whether a reason is given, and formatting every
// message was most of its time. args must not change
// after the call (pass values, as fmt.Errorf callers do); Reasonf does not
// support %w.
func Reasonf(format string, args ...any) error {
	return &reason{format: format, args: args}
}

// reason is the error Reasonf returns.
type reason struct {
	format string
	args   []any
}

// Error formats the message.
func (r *reason) Error() string { return fmt.Sprintf(r.format, r.args...) }
