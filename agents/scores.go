package agents

// ScoredMove is a move an agent weighed before it chose, with the score it
// gave the move.
type ScoredMove struct {
	// Action is the move's action id.
	Action int
	// Score is what the agent measured for the move; higher is better. Its
	// meaning is the agent's ScoreKind.
	Score float64
}

// MoveScorer is implemented by agents that weigh several moves before they
// play one: mc (each candidate's mean rollout value) and uct (the visits of
// each move at the root of its tree). A learner can imitate these scores,
// which say more than the one move played: how much better the choice was
// than the others, and which others were close.
type MoveScorer interface {
	// ScoreKind says in a few words what the scores are, for metadata.
	ScoreKind() string
	// MoveScores appends to dst the moves weighed at the last Act, with their
	// scores, and returns it. It appends nothing when the last Act weighed
	// nothing (a single legal move). The moves are legal in the position of
	// the last Act; the move played need not score best (mc keeps the
	// one-step evaluation's choice unless a rollout gain is clear).
	MoveScores(dst []ScoredMove) []ScoredMove
}

// Score kinds of the agents that weigh moves.
const (
	// ScoreKindRollout is mc's: the mean over the rollouts of the final
	// value of the position (cards, plus a bonus for a win) after the move.
	ScoreKindRollout = "mean rollout value in cards (mc)"
	// ScoreKindVisits is uct's: how many of the iterations passed through
	// the move at the root.
	ScoreKindVisits = "root visits (uct)"
)

var (
	_ MoveScorer = (*MC)(nil)
	_ MoveScorer = (*UCT)(nil)
)

// ScoreKind returns ScoreKindRollout.
func (m *MC) ScoreKind() string { return ScoreKindRollout }

// MoveScores appends the last Act's candidates, in the order mc ranked
// them by one-step evaluation, with their mean rollout values.
func (m *MC) MoveScores(dst []ScoredMove) []ScoredMove {
	for i := range m.weighed {
		dst = append(dst, ScoredMove{Action: m.cands[i], Score: m.means[i]})
	}
	return dst
}

// ScoreKind returns ScoreKindVisits.
func (u *UCT) ScoreKind() string { return ScoreKindVisits }

// MoveScores appends the moves at the root of the last Act's tree with
// their visit counts.
func (u *UCT) MoveScores(dst []ScoredMove) []ScoredMove {
	if !u.weighed || len(u.nodes) == 0 {
		return dst
	}
	root := u.nodes[0]
	for i := root.first; i < root.first+root.count; i++ {
		dst = append(dst, ScoredMove{Action: int(u.edges[i].action), Score: u.edges[i].visits})
	}
	return dst
}
