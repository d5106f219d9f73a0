// Package policy holds the learned models the agents play with: the model
// file (a safetensors file whose metadata says what the network is for,
// docs/models.md), its reader and writer, the network's forward pass over
// the one-hot observation (Net), and the Scorer that turns a value file's
// output into the score of a position, built from small stages (the
// output's link, the weighted evaluation and its terms, the opening's
// weights, the look-ahead over reshuffled copies).
//
// The file contract, which trainers follow, is docs/models.md; Format,
// RequiredKeys and Meta state it in Go, and the test vectors under
// testdata/vectors (read by this package's tests and by the Python
// package's) keep this reader and patience_gym.train.load_model in step.
//
// The package knows no agent: package agents imports it (the policy agent,
// mc's and uct's model= settings), never the other way.
package policy
