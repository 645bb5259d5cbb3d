//go:build v4a_intree

package v4a

// Benchmarks: Apply on a 1,000-line and a 100,000-line file (workloads W1 and W2 of
// benches/support/workloads.rs, ported byte for byte), next to baselines measured in the
// same run:
//
//   - cgo:  v4a_apply + v4a_result_free called through cgo, copying nothing into Go: the
//     cost of the C ABI alone.
//   - rust: v4a::apply from Rust, in a helper process (testdata/rustbaseline, built by
//     test.sh and named by V4A_RUST_BASELINE); skipped when the variable is unset. The same
//     work as Apply with nil options: the same defaults (no structured diff, no refinement;
//     the unified diff is only rendered by Result.UnifiedDiff), the same Applied result.
//
// BenchmarkApply gives each variant the usual ns/op. BenchmarkOverhead alternates them in
// rounds (so that a noisy machine slows them alike), with two more that split the Go call's
// extra cost (see its comment), and reports medians of the wall-clock time and of the CPU
// time (getrusage: every thread of the process, so the Go garbage collector's work counts
// against the Go call), the page faults and collections per call, and the ratios go/rust
// (what the README's performance table shows) and go/cgo. On a shared machine the CPU time
// is the steadier measure: it leaves out the time the process waited for a CPU. test.sh
// runs it with glibc's trim threshold raised (GLIBC_TUNABLES), since otherwise the time of
// every variant depends on the allocator's history (whether the freed top of the heap goes
// back to the kernel between calls).
//
//	V4A_RUST_BASELINE=... go test -run '^$' -bench Overhead -benchtime 1x
//	V4A_BENCH_LIVE_HEAP_MB=64 ...   the same with 64 MB of live Go memory held meanwhile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchRng is the deterministic generator of benches/support/workloads.rs.
type benchRng struct{ s uint64 }

func newBenchRng(seed uint64) *benchRng { return &benchRng{seed*0x9E3779B97F4A7C15 | 1} }

func (r *benchRng) next() uint64 {
	r.s = r.s*6364136223846793005 + 1442695040888963407
	return r.s >> 16
}

func (r *benchRng) below(n uint64) uint64 { return r.next() % n }

var benchWords = [16]string{"value", "count", "index", "buffer", "result", "config", "handle",
	"offset", "length", "cursor", "parser", "stream", "target", "source", "record", "status"}

// codeLines is workloads::code_lines: code-like lines of mixed length and indentation.
func codeLines(n int, seed uint64) []string {
	r := newBenchRng(seed)
	out := make([]string, n)
	for i := range out {
		indent := strings.Repeat("    ", int(r.below(4)))
		a := benchWords[r.below(16)]
		b := benchWords[r.below(16)]
		switch r.below(6) {
		case 0:
			out[i] = fmt.Sprintf("%slet %s_%d = %s.get(%d);", indent, a, i, b, r.below(1000))
		case 1:
			out[i] = fmt.Sprintf("%sif %s > %s {", indent, a, b)
		case 2:
			out[i] = indent + "}"
		case 3:
			out[i] = fmt.Sprintf("%s// %s and %s are checked here (%d)", indent, a, b, i)
		case 4:
			out[i] = fmt.Sprintf("%s%s.push(%s_%d, \"%d\");", indent, a, b, i, r.below(100_000))
		default:
			out[i] = fmt.Sprintf("%sreturn %s_%d + %s;", indent, a, i, b)
		}
	}
	return out
}

// hunkAt is workloads::hunk_at: a bare hunk replacing line at, 3 lines of context around.
func hunkAt(lines []string, at int, replacement string) string {
	var h strings.Builder
	h.WriteString("@@\n")
	for _, l := range lines[max(at-3, 0):at] {
		h.WriteString(" " + l + "\n")
	}
	h.WriteString("-" + lines[at] + "\n+" + replacement + "\n")
	for _, l := range lines[at+1 : min(at+4, len(lines))] {
		h.WriteString(" " + l + "\n")
	}
	return h.String()
}

type benchWorkload struct {
	name, source, diff string
}

var benchWorkloads = sync.OnceValue(func() []benchWorkload {
	w1 := codeLines(1_000, 1)
	w2 := codeLines(100_000, 2)
	return []benchWorkload{
		{"1000-lines", strings.Join(w1, "\n") + "\n", hunkAt(w1, 500, "    changed();")},
		{"100000-lines", strings.Join(w2, "\n") + "\n", hunkAt(w2, 90_000, "    changed();")},
	}
})

// rustBaseline is the helper process applying the same patch from Rust.
type rustBaseline struct {
	cmd      *exec.Cmd
	in       io.WriteCloser
	out      *bufio.Reader
	workload string
}

// startRust starts the helper on w's inputs; nil when V4A_RUST_BASELINE is unset.
func startRust(tb testing.TB, w benchWorkload) *rustBaseline {
	bin := os.Getenv("V4A_RUST_BASELINE")
	if bin == "" {
		return nil
	}
	dir := tb.TempDir()
	src, diff := filepath.Join(dir, "source"), filepath.Join(dir, "diff")
	if err := os.WriteFile(src, []byte(w.source), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(diff, []byte(w.diff), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, src, diff)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting the Rust baseline %s: %v", bin, err)
	}
	rb := &rustBaseline{cmd: cmd, in: in, out: bufio.NewReader(outPipe)}
	tb.Cleanup(rb.close)
	line, err := rb.out.ReadString('\n')
	var textLen int
	if _, serr := fmt.Sscanf(line, "ready %d %s", &textLen, &rb.workload); err != nil || serr != nil {
		tb.Fatalf("the Rust baseline did not start: %q %v %v", line, err, serr)
	}
	r, aerr := Apply(w.source, w.diff, ModeUpdate, nil)
	if aerr != nil || len(r.Text) != textLen {
		tb.Fatalf("the Rust baseline's result (%d bytes) differs from Go's (%v)", textLen, aerr)
	}
	return rb
}

// run applies n times in the helper and returns the wall-clock and CPU time it took.
func (r *rustBaseline) run(tb testing.TB, n int) (wall, cpu time.Duration) {
	if _, err := fmt.Fprintf(r.in, "%d\n", n); err != nil {
		tb.Fatal(err)
	}
	line, err := r.out.ReadString('\n')
	if err != nil {
		tb.Fatalf("the Rust baseline stopped: %v", err)
	}
	var w, c int64
	if _, err := fmt.Sscanf(line, "%d %d", &w, &c); err != nil {
		tb.Fatalf("the Rust baseline answered %q: %v", line, err)
	}
	return time.Duration(w), time.Duration(c)
}

func (r *rustBaseline) close() {
	r.in.Close()
	r.cmd.Wait()
}

func applyGo(tb testing.TB, w benchWorkload, n int) {
	for i := 0; i < n; i++ {
		if _, err := Apply(w.source, w.diff, ModeUpdate, nil); err != nil {
			tb.Fatal(err)
		}
	}
}

func applyCgo(tb testing.TB, w benchWorkload, n int) {
	for i := 0; i < n; i++ {
		if c := nativeApplyOnly(w.source, w.diff); c != CodeOK {
			tb.Fatal(c)
		}
	}
}

func BenchmarkApply(b *testing.B) {
	for _, w := range benchWorkloads() {
		w := w
		b.Run(w.name+"/go", func(b *testing.B) {
			b.SetBytes(int64(len(w.source)))
			applyGo(b, w, b.N)
		})
		b.Run(w.name+"/cgo", func(b *testing.B) {
			b.SetBytes(int64(len(w.source)))
			applyCgo(b, w, b.N)
		})
		b.Run(w.name+"/rust", func(b *testing.B) {
			rb := startRust(b, w)
			if rb == nil {
				b.Skip("V4A_RUST_BASELINE is not set (bindings/go/test.sh builds the helper)")
			}
			b.SetBytes(int64(len(w.source)))
			b.ResetTimer()
			d, _ := rb.run(b, b.N)
			b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "ns/op")
		})
	}
}

var benchSink string

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// timing collects per-operation wall-clock and CPU times over rounds, and counts the
// operations, page faults and garbage collections.
type timing struct {
	wall, cpu           []float64
	ops, faults, cycles int64
}

// perOp is the page faults and the collections per operation, over every round.
func (t *timing) perOp() (faults, collections float64) {
	if t.ops == 0 {
		return 0, 0
	}
	return float64(t.faults) / float64(t.ops), float64(t.cycles) / float64(t.ops)
}

func (t *timing) add(n int, wall, cpu time.Duration) {
	t.wall = append(t.wall, float64(wall.Nanoseconds())/float64(n))
	t.cpu = append(t.cpu, float64(cpu.Nanoseconds())/float64(n))
}

// measure runs f(n) and records its times, page faults and garbage collections.
func (t *timing) measure(n int, f func()) {
	g, p := gcCycles(), processFaults()
	c, w := processCPU(), time.Now()
	f()
	t.add(n, time.Since(w), processCPU()-c)
	t.ops += int64(n)
	t.faults += processFaults() - p
	t.cycles += int64(gcCycles() - g)
}

// gcCycles is the number of garbage collections the Go runtime has completed.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// liveHeap holds V4A_BENCH_LIVE_HEAP_MB megabytes of live Go memory during
// BenchmarkOverhead, as a program that holds data of its own would: the collector then
// runs less often for the same allocations, and freed blocks are reused rather than given
// back to the kernel. Unset (the default): the test binary's own heap, a few megabytes.
var liveHeap []byte

// BenchmarkOverhead measures five variants in alternating rounds and reports medians and
// ratios. It runs for at least 2 s per workload whatever b.N is (use -benchtime 1x).
//
//   - go: Apply.
//   - cgo: v4a_apply + v4a_result_free through cgo, reading nothing.
//   - copy: Apply without the Go heap: every view read as Apply reads them, the new text
//     copied into a reused Go buffer, the result freed. copy - cgo is what reading and
//     moving the bytes costs.
//   - alloc: a Go string of the new text's size made from bytes, alone: what the Go heap
//     charges for the block Result.Text needs (allocating it, the page faults when the
//     runtime had given the memory back to the kernel, the collections that the garbage
//     brings). go - copy is about this.
//   - rust: v4a::apply in the helper process.
func BenchmarkOverhead(b *testing.B) {
	if mb, err := strconv.Atoi(os.Getenv("V4A_BENCH_LIVE_HEAP_MB")); err == nil && mb > 0 {
		liveHeap = make([]byte, mb<<20)
		for i := 0; i < len(liveHeap); i += 4096 {
			liveHeap[i] = 1
		}
		defer func() { liveHeap = nil }()
	}
	for _, w := range benchWorkloads() {
		w := w
		b.Run(w.name, func(b *testing.B) {
			rb := startRust(b, w)
			// Iterations per round: about 25 ms of Go applies.
			start := time.Now()
			applyGo(b, w, 3)
			per := time.Since(start) / 3
			n := max(1, int(25*time.Millisecond/max(per, time.Microsecond)))
			r, err := Apply(w.source, w.diff, ModeUpdate, nil)
			if err != nil {
				b.Fatal(err)
			}
			text := []byte(r.Text)
			buf := make([]byte, len(text))
			var goT, cgoT, copyT, allocT, rustT timing
			began := time.Now()
			for round := 0; round < 15 || time.Since(began) < 2*time.Second; round++ {
				goT.measure(n, func() { applyGo(b, w, n) })
				cgoT.measure(n, func() { applyCgo(b, w, n) })
				copyT.measure(n, func() {
					for i := 0; i < n; i++ {
						if m, c := nativeApplyCopyText(w.source, w.diff, buf); c != CodeOK || m != len(text) {
							b.Fatal(c, m)
						}
					}
				})
				allocT.measure(n, func() {
					for i := 0; i < n; i++ {
						benchSink = string(text)
					}
				})
				if rb != nil {
					wall, cpu := rb.run(b, n)
					rustT.add(n, wall, cpu)
				}
			}
			g, c, gc, cc := median(goT.wall), median(cgoT.wall), median(goT.cpu), median(cgoT.cpu)
			b.ReportMetric(g, "ns/op")
			b.ReportMetric(g/c, "go/cgo")
			if gc > 0 && cc > 0 {
				b.ReportMetric(gc/cc, "go/cgo-cpu")
			}
			a, ac := median(allocT.wall), median(allocT.cpu)
			b.ReportMetric(a, "text-alloc-ns/op")
			y, yc := median(copyT.wall), median(copyT.cpu)
			b.ReportMetric(y, "copy-ns/op")
			heap := "the test binary's heap"
			if liveHeap != nil {
				heap = fmt.Sprintf("%d MB live heap", len(liveHeap)>>20)
			}
			gf, gg := goT.perOp()
			af, ag := allocT.perOp()
			summary := fmt.Sprintf("%s (%s): %d rounds of %d; wall go %.1f µs, cgo %.1f µs (go/cgo %.3f), copy %.1f µs; "+
				"cpu go %.1f µs, cgo %.1f µs (go/cgo %.3f), copy %.1f µs; "+
				"the %d-byte text as a new Go string alone: wall %.1f µs, cpu %.1f µs; "+
				"per op: go %.2f page faults, %.4f collections; alloc %.2f page faults, %.4f collections",
				w.name, heap, len(goT.wall), n, g/1e3, c/1e3, g/c, y/1e3, gc/1e3, cc/1e3, gc/cc, yc/1e3,
				len(text), a/1e3, ac/1e3, gf, gg, af, ag)
			if rb != nil {
				r, rc := median(rustT.wall), median(rustT.cpu)
				b.ReportMetric(g/r, "go/rust")
				b.ReportMetric(c/r, "cgo/rust")
				if gc > 0 && rc > 0 {
					b.ReportMetric(gc/rc, "go/rust-cpu")
					b.ReportMetric(cc/rc, "cgo/rust-cpu")
					b.ReportMetric(yc/rc, "copy/rust-cpu")
				}
				summary += fmt.Sprintf("; rust (%s) wall %.1f µs, cpu %.1f µs: go/rust wall %.3f, cpu %.3f; cgo/rust wall %.3f, cpu %.3f; copy/rust cpu %.3f",
					rb.workload, r/1e3, rc/1e3, g/r, gc/rc, c/r, cc/rc, yc/rc)
			} else {
				summary += " (set V4A_RUST_BASELINE for the Rust baseline)"
			}
			b.Log(summary)
		})
	}
}
