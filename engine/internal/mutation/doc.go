// Package mutation measures how well the engine's tests catch a wrong rule.
//
// It has no production code: its tests are the tool. mutants_test.go finds
// the sites where a small, plausible mistake can be made in the engine's
// non-test Go files (a comparison flipped, an integer constant moved by
// one, a condition negated, && swapped with ||, a field assignment
// dropped, unless it sets the zero value leaving it out would give) and
// writes the mutated file; its ordinary tests check each kind of change on
// a small source. run_test.go, built only with the mutation tag, samples
// mutants with a fixed seed (each site's place in the draw depends only on
// the seed and the site's own file and line, so editing one file leaves
// nearly all of the rest of the sample as it was), lays each over its file
// with go test -overlay (no file changes in place), runs the tests of the
// mutated package and of the engine packages that import it, and prints
// the score per package:
//
//	go test -tags mutation ./engine/internal/mutation -run TestMutationScore -v -timeout 3h
//
// Flags (after -args): -mutants N (140), -seed S (42), -mutant-timeout D
// (3m), -min-score F (0.85; the run fails below it, 0 to only report),
// -match RE (run only the sampled mutants whose description matches, to
// look again at some; the score then counts only those), -from N (run
// only the drawn mutants after the first N, so that two processes share
// one sample: -mutants 70 in one, -from 70 in the other).
// A mutant that does not compile is not counted and another is drawn in its
// place; a mutant whose tests time out counts as caught.
package mutation
