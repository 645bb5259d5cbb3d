package v4a

// Concurrency soak: goroutines apply random shared vectors of tests/vectors/ at once, each
// with its own seeded PRNG (single-file applies by mode and by mode name, multi-file patches
// parsed by the job or parsed once and applied by every goroutine, reverse and generated
// patches, failures with their *Error), and publish what they get into a shared pool. Other
// goroutines take results from the pool while their maker and other readers may read them
// too, and check every field (texts, hunk reports, structured diff and segments, edit
// script, summary, file results, the error and its diagnostics, the unified diff rendered
// from the shared result) against a reference computed before the goroutines start, by one
// goroutine, for a vector that TestVectors's checks pass. test.sh runs it under -race, which
// reports any write to a result after it was returned.
//
// Size: V4A_SOAK_JOBS jobs per goroutine (default 4000, about 5 s under -race on two cores;
// 200 with -short), V4A_SOAK_GOROUTINES goroutines (default 8), V4A_SOAK_SEED the seed
// (default 1).

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// soakOutcome is what one job returns: one of the values, or the error.
type soakOutcome struct {
	result *Result
	patch  *PatchResult
	text   string
	err    error
}

// soakRef is what every job of one kind on one vector must return, with the unified diffs
// of its results (context 2).
type soakRef struct {
	outcome soakOutcome
	unified []string
}

const (
	soakApply = iota
	soakApplyModeName
	soakParseApply
	soakSharedApply
	soakReverse
	soakMakePatch
	soakKinds
)

var soakKindNames = [soakKinds]string{"ApplyBytes", "ApplyModeName", "ParsePatch+ApplyPatch",
	"shared Patch ApplyPatch", "Reverse", "MakePatch"}

const soakVariants = 3

type soakVector struct {
	c       *vectorCase
	options [soakVariants]*Options
	mode    Mode
	source  []byte
	sources SourceMap
	shared  *Patch // parsed once, applied by every goroutine
	after   []byte // single-file: the expected text
	refs    [soakKinds][soakVariants]*soakRef
}

func soakEnvInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: expected a positive number", name, s)
	}
	return n
}

// run does one job and returns its outcome.
func (v *soakVector) run(kind, variant int) soakOutcome {
	opts := v.options[variant]
	var o soakOutcome
	switch kind {
	case soakApply:
		o.result, o.err = ApplyBytes(v.source, v.c.patch, v.mode, opts)
	case soakApplyModeName:
		o.result, o.err = ApplyModeName(string(v.source), string(v.c.patch), v.c.mode, opts)
	case soakParseApply:
		p, err := ParsePatch(string(v.c.patch))
		if err != nil {
			o.err = err
			break
		}
		o.patch, o.err = ApplyPatch(p, v.sources, opts)
	case soakSharedApply:
		o.patch, o.err = ApplyPatch(v.shared, v.sources, opts)
	case soakReverse:
		o.text, o.err = Reverse(v.shared, v.sources, opts)
	case soakMakePatch:
		o.text, o.err = MakePatch(string(v.source), string(v.after), "f", nil)
	}
	return o
}

// results are the file results of an outcome, in order.
func (o *soakOutcome) results() []*Result {
	switch {
	case o.result != nil:
		return []*Result{o.result}
	case o.patch != nil:
		rs := make([]*Result, len(o.patch.Files))
		for i := range o.patch.Files {
			rs[i] = o.patch.Files[i].Result
		}
		return rs
	}
	return nil
}

func (v *soakVector) reference(kind, variant int) *soakRef {
	ref := &soakRef{outcome: v.run(kind, variant)}
	for _, r := range ref.outcome.results() {
		ref.unified = append(ref.unified, r.UnifiedDiff(2))
	}
	return ref
}

// kinds are the job kinds that apply to the vector, each as often as it should be picked:
// mostly applies, a reverse or a generated patch now and then.
func (v *soakVector) kinds() []int {
	if v.c.hasMode {
		k := []int{soakApplyModeName, soakApplyModeName, soakApplyModeName}
		if _, err := ParseMode(v.c.mode); err == nil {
			k = append(k, soakApply, soakApply, soakApply)
			if v.mode == ModeUpdate && v.c.after != nil {
				k = append(k, soakMakePatch)
			}
		}
		return k
	}
	k := []int{soakParseApply, soakParseApply, soakParseApply}
	if v.shared != nil {
		k = append(k, soakSharedApply, soakSharedApply, soakSharedApply, soakReverse)
	}
	return k
}

// loadSoakVectors loads every vector that TestVectors's checks pass and computes its
// references, one goroutine, before the soak starts.
func loadSoakVectors(t *testing.T) []*soakVector {
	dir := vectorsDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("cannot read the shared vectors: %v", err)
	}
	var out []*soakVector
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c, err := loadCase(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if c.base != nil {
			continue // base-aware apply: TestVectors' own (the soak's jobs apply without bases)
		}
		if problems := runVector(c); len(problems) > 0 {
			t.Fatalf("%s does not pass its own checks: %s", c.name, strings.Join(problems, "; "))
		}
		v := &soakVector{c: c}
		v.options[0] = c.options
		full, changes := *c.options, *c.options
		full.Diff, full.Refine = FullDiff(), true
		changes.Diff = ChangesDiff(1)
		v.options[1], v.options[2] = &full, &changes
		if c.hasMode {
			v.source = firstBefore(c)
			v.mode, _ = ParseMode(c.mode)
			for _, b := range c.after {
				v.after = b
			}
			if v.after == nil {
				v.after = []byte{}
			}
		} else {
			if !utf8.Valid(c.patch) {
				t.Fatalf("%s: a multi-file patch must be UTF-8", c.name)
			}
			if v.sources, err = sourcesOf(c); err != nil {
				t.Fatal(err)
			}
			v.shared, _ = ParsePatch(string(c.patch)) // nil when it does not parse
		}
		for _, kind := range v.kinds() {
			for variant := 0; variant < soakVariants; variant++ {
				if v.refs[kind][variant] == nil {
					v.refs[kind][variant] = v.reference(kind, variant)
				}
			}
		}
		v.checkReferences(t)
		out = append(out, v)
	}
	if len(out) < minVectors {
		t.Fatalf("only %d vectors", len(out))
	}
	return out
}

// checkReferences ties the references to the vector: the texts are after/ (TestVectors checks
// the rest of it), both single-file calls agree, a generated patch applies back.
func (v *soakVector) checkReferences(t *testing.T) {
	t.Helper()
	for variant := 0; variant < soakVariants; variant++ {
		if v.c.hasMode {
			ref := v.refs[soakApplyModeName][variant].outcome
			if v.c.after != nil && (ref.err != nil || ref.result.Text != string(v.after)) {
				t.Fatalf("%s: the reference is not after/: %+v", v.c.name, ref)
			}
			if v.c.after == nil && ref.err == nil {
				t.Fatalf("%s: the reference does not fail", v.c.name)
			}
			if r := v.refs[soakApply][variant]; r != nil && !reflect.DeepEqual(r.outcome, ref) {
				t.Fatalf("%s: ApplyBytes and ApplyModeName disagree", v.c.name)
			}
		} else {
			ref := v.refs[soakParseApply][variant].outcome
			if (ref.err == nil) != (v.c.after != nil) {
				t.Fatalf("%s: the reference's outcome is not the vector's: %v", v.c.name, ref.err)
			}
			if r := v.refs[soakSharedApply][variant]; r != nil && !reflect.DeepEqual(r.outcome, ref) {
				t.Fatalf("%s: a shared patch and a fresh one disagree", v.c.name)
			}
		}
	}
	if r := v.refs[soakMakePatch][0]; r != nil && r.outcome.err == nil && string(v.source) != string(v.after) {
		back, err := ApplyBytes(v.source, []byte(r.outcome.text), ModeUpdate, nil)
		if err != nil || back.Text != string(v.after) {
			t.Fatalf("%s: the generated patch does not apply back to after/: %v", v.c.name, err)
		}
	}
}

type soakItem struct {
	v       *soakVector
	kind    int
	variant int
	maker   int
	outcome soakOutcome
}

type soakWorker struct {
	id                  int
	jobs                [soakKinds]int
	checks, foreignRead int
	unified             int
	problems            []string
}

// check reads every field of a shared outcome and compares it with the reference.
func (w *soakWorker) check(it *soakItem, rng *rand.Rand) {
	w.checks++
	ref := it.v.refs[it.kind][it.variant]
	describe := func(what string) {
		if len(w.problems) < 10 {
			w.problems = append(w.problems, fmt.Sprintf("goroutine %d: %s (%s, variant %d, made by goroutine %d): %s",
				w.id, it.v.c.name, soakKindNames[it.kind], it.variant, it.maker, what))
		}
	}
	if !reflect.DeepEqual(it.outcome, ref.outcome) {
		describe(fmt.Sprintf("differs from the reference:\n    got:  %+v\n    want: %+v", it.outcome, ref.outcome))
		return
	}
	if it.outcome.err != nil {
		// the error's methods, on a value other goroutines read too
		e, ok := it.outcome.err.(*Error)
		if !ok || it.outcome.err.Error() != ref.outcome.err.Error() || !errors.Is(e, sentinelOf(e.Code)) {
			describe("the error's methods disagree")
		}
		return
	}
	results := it.outcome.results()
	if len(results) > 0 && rng.Intn(4) == 0 {
		i := rng.Intn(len(results))
		w.unified++
		if got := results[i].UnifiedDiff(2); got != ref.unified[i] {
			describe(fmt.Sprintf("UnifiedDiff(2) of file %d differs:\n    got:  %q\n    want: %q", i, got, ref.unified[i]))
		}
	}
	if it.v.c.hasMode && it.outcome.result != nil && it.outcome.result.Text != string(it.v.after) {
		describe("the text is not after/")
	}
}

func TestSoak(t *testing.T) {
	jobs := 4000
	if testing.Short() {
		jobs = 200
	}
	jobs = soakEnvInt(t, "V4A_SOAK_JOBS", jobs)
	goroutines := soakEnvInt(t, "V4A_SOAK_GOROUTINES", 8)
	seed := int64(soakEnvInt(t, "V4A_SOAK_SEED", 1))
	vectors := loadSoakVectors(t)

	const poolSize = 256
	var (
		mu   sync.Mutex
		pool [poolSize]*soakItem
		wg   sync.WaitGroup
	)
	workers := make([]*soakWorker, goroutines)
	start := time.Now()
	for g := 0; g < goroutines; g++ {
		w := &soakWorker{id: g}
		workers[g] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			jobRng := rand.New(rand.NewSource(seed*1000003 + int64(w.id)))
			readRng := rand.New(rand.NewSource(^(seed*1000003 + int64(w.id))))
			for i := 0; i < jobs; i++ {
				v := vectors[jobRng.Intn(len(vectors))]
				kinds := v.kinds()
				kind := kinds[jobRng.Intn(len(kinds))]
				variant := jobRng.Intn(soakVariants)
				it := &soakItem{v: v, kind: kind, variant: variant, maker: w.id,
					outcome: v.run(kind, variant)}
				w.jobs[kind]++
				slot := jobRng.Intn(poolSize)
				mu.Lock()
				pool[slot] = it
				mu.Unlock()

				mu.Lock()
				other := pool[readRng.Intn(poolSize)]
				mu.Unlock()
				if other != nil {
					if other.maker != w.id {
						w.foreignRead++
					}
					w.check(other, readRng)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var total soakWorker
	for _, w := range workers {
		for k := range w.jobs {
			total.jobs[k] += w.jobs[k]
		}
		total.checks += w.checks
		total.foreignRead += w.foreignRead
		total.unified += w.unified
		for _, p := range w.problems {
			t.Error(p)
		}
	}
	// what is left in the pool, checked once more
	final := &soakWorker{id: -1}
	for _, it := range pool {
		if it != nil {
			final.check(it, rand.New(rand.NewSource(seed)))
		}
	}
	for _, p := range final.problems {
		t.Error(p)
	}
	var kinds []string
	all := 0
	for k, n := range total.jobs {
		kinds = append(kinds, fmt.Sprintf("%s %d", soakKindNames[k], n))
		all += n
	}
	t.Logf("%d goroutines x %d jobs over %d vectors, seed %d: %v (%.0f jobs/s); %s; %d shared results checked (%d made by another goroutine, %d unified diffs rendered from them)",
		goroutines, jobs, len(vectors), seed, elapsed.Round(time.Millisecond), float64(all)/elapsed.Seconds(),
		strings.Join(kinds, ", "), total.checks+final.checks, total.foreignRead, total.unified)
	if goroutines > 1 && total.foreignRead == 0 {
		t.Error("no result was read by a goroutine that did not make it")
	}
}
