package solver

// What the tests of package solver_test see of the solver's insides.

// SetOpeningJitter sets the jitter of the opening pass's later rounds
// (openingJitter) and returns a function that restores it.
func SetOpeningJitter(j float64) (restore func()) {
	old := openingJitter
	openingJitter = j
	return func() { openingJitter = old }
}

// Form is a form of a once-allowed move that the opening pass listed.
type Form struct {
	Actions []int
	Hash    uint64
	Score   float32
}

// StartForms returns the forms the opening pass of s's latest search
// listed at the start, best first.
func (s *Solver) StartForms() []Form {
	var out []Form
	for _, f := range s.openRoots[0].forms {
		var actions []int
		for _, a := range f.actions[:f.n] {
			actions = append(actions, int(a))
		}
		out = append(out, Form{actions, f.hash, f.score})
	}
	return out
}

// NoScoreCache turns s's score cache off (for its opening pass's searches
// too).
func (s *Solver) NoScoreCache() { s.noCache = true }

// UsesScoreCache reports whether s's latest search, or the searches of
// its opening pass, kept the score cache.
func (s *Solver) UsesScoreCache() bool { return s.useCache || s.sub != nil && s.sub.useCache }

// SetBestFirstStates sets the most positions a best-first pass holds
// (bfMaxStates) and returns a function that restores it.
func SetBestFirstStates(n int) (restore func()) {
	old := bfMaxStates
	bfMaxStates = n
	return func() { bfMaxStates = old }
}
