package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/store"
)

// buildBinary compiles the real program once per test.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rhapsode")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is one run of the binary at the local table in --json mode.
type process struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies chan jsonReply
}

type jsonReply struct {
	User      string `json:"user"`
	Ephemeral bool   `json:"ephemeral"`
	Text      string `json:"text"`
}

func start(t *testing.T, bin, db string) *process {
	t.Helper()
	cmd := exec.Command(bin, "local", "--db", db, "--json")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stdin: stdin, replies: make(chan jsonReply, 16)}
	go func() {
		defer close(p.replies)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var r jsonReply
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Errorf("reply is not JSON: %q", sc.Text())
				return
			}
			p.replies <- r
		}
	}()
	return p
}

// send writes one line and waits for its one reply.
func (p *process) send(t *testing.T, line string) jsonReply {
	t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		t.Fatalf("write %q: %v", line, err)
	}
	select {
	case r, ok := <-p.replies:
		if !ok {
			t.Fatalf("the table closed instead of answering %q", line)
		}
		return r
	case <-time.After(30 * time.Second):
		t.Fatalf("no answer to %q", line)
	}
	return jsonReply{}
}

func (p *process) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
}

var (
	nextRe   = regexp.MustCompile(`Next: the (\w+) \((\w+)\)\.`)
	statusRe = regexp.MustCompile(`It is the (\w+)'?s? turn \((\w+)\)|waits for (\w+) to spend the (\w+)'?s? impact`)
	impactRe = regexp.MustCompile(`(\w+): spend the \d+ strides? with /impact`)
	movedRe  = regexp.MustCompile(`^(\w+-W\d) \(\w+\) moves`)
	aloofRe  = regexp.MustCompile(`^The (\w+) stand aloof`)
)

var clanTag = map[string]string{"Myrmidons": "MYR", "Lycians": "LYC", "Trojans": "TRO", "Achaeans": "ACH"}
var foeTag = map[string]string{"MYR": "TRO", "LYC": "ACH", "TRO": "MYR", "ACH": "LYC"}

// TestCrashKeepsAcknowledgedActions kills the real binary with SIGKILL at
// many random points of a long game, restarting it each time on the same
// database. Every action the table acknowledged must be in the log
// afterwards, in order, and the game as loaded from snapshots must equal a
// full replay of the log.
func TestCrashKeepsAcknowledgedActions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the real binary")
	}
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(2026, 11))

	p := start(t, bin, db)
	for _, line := range []string{
		"@alice /book open mode:practice",
		"#seed 5",
		"/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow",
		"/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,spear",
		"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow",
		"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin",
		"@alice /book start",
	} {
		if r := p.send(t, line); r.Ephemeral {
			t.Fatalf("%s: %s", line, r.Text)
		}
	}

	type action struct{ kind, subject string }
	var acked []action
	// turn asks whose move it is; clan is "" when a melee waits for
	// player to spend an impact.
	turn := func(p *process) (clan, player string) {
		r := p.send(t, "/status")
		m := statusRe.FindStringSubmatch(r.Text)
		switch {
		case m == nil:
			t.Fatalf("status names no turn: %s", r.Text)
		case m[3] != "":
			return "", m[3]
		}
		return clanTag[m[1]], m[2]
	}
	clan, player := turn(p)
	const actions, kills = 220, 30
	killAt := map[int]bool{}
	for len(killAt) < kills {
		killAt[1+rng.IntN(actions-1)] = true
	}
	for i := 0; i < actions; i++ {
		var line string
		switch {
		case clan == "":
			line = fmt.Sprintf("@%s /impact", player)
		case rng.IntN(4) == 0:
			line = fmt.Sprintf("@%s /aloof", player)
		default:
			w := 1 + rng.IntN(3)
			line = fmt.Sprintf("@%s /move element:%s-W%d toward:%s-W%d strides:1", player, clan, w, foeTag[clan], w)
		}
		if killAt[i] && rng.IntN(2) == 0 {
			// Kill while the command may be in flight: its fate is
			// unknown, so it is not counted as acknowledged.
			io.WriteString(p.stdin, line+"\n")
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
			p.kill()
			p = start(t, bin, db)
			clan, player = turn(p)
			continue
		}
		r := p.send(t, line)
		if !r.Ephemeral {
			first := strings.SplitN(r.Text, "\n", 2)[0]
			switch {
			case movedRe.MatchString(first):
				acked = append(acked, action{"gwab.moved", movedRe.FindStringSubmatch(first)[1]})
			case aloofRe.MatchString(first):
				acked = append(acked, action{"gwab.stood-aloof", clanTag[aloofRe.FindStringSubmatch(first)[1]]})
			case strings.HasPrefix(first, "Impact: "):
				acked = append(acked, action{"gwab.impact-spent", ""})
			default:
				t.Fatalf("%s: unexpected reply %q", line, r.Text)
			}
		}
		switch m, im := nextRe.FindStringSubmatch(r.Text), impactRe.FindStringSubmatch(r.Text); {
		case im != nil:
			clan, player = "", im[1]
		case m != nil:
			clan, player = clanTag[m[1]], m[2]
		case r.Ephemeral:
			// Refused (an element in contact cannot walk away): stand
			// aloof instead.
			r := p.send(t, fmt.Sprintf("@%s /aloof", player))
			if r.Ephemeral {
				t.Fatalf("aloof refused: %s", r.Text)
			}
			acked = append(acked, action{"gwab.stood-aloof", clan})
			clan, player = turnFrom(t, r.Text)
		default:
			t.Fatalf("%s: the reply names no next step: %q", line, r.Text)
		}
		if killAt[i] {
			p.kill()
			p = start(t, bin, db)
			clan, player = turn(p)
		}
	}
	p.stdin.Close()
	p.cmd.Wait()

	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	info, err := st.LatestGame(ctx, "local", "table")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.Events(ctx, info.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Every acknowledged action is in the log, in the order acknowledged.
	j := 0
	for _, rec := range recs {
		if j < len(acked) && rec.Kind == acked[j].kind {
			var body struct {
				Element string `json:"element"`
				Clan    string `json:"clan"`
			}
			json.Unmarshal(rec.Payload, &body)
			if acked[j].subject == "" || body.Element == acked[j].subject || (body.Element == "" && body.Clan == acked[j].subject) {
				j++
			}
		}
	}
	if j != len(acked) {
		t.Fatalf("only %d of %d acknowledged actions are in the log; missing from %+v", j, len(acked), acked[j])
	}
	if len(acked) < actions/2 {
		t.Fatalf("only %d actions were acknowledged; the stream did not play", len(acked))
	}

	loaded, err := bot.Load(ctx, st, gwab.New(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := bot.Replay(ctx, st, gwab.New(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := loaded.Snapshot()
	b, _ := replayed.Snapshot()
	if string(a) != string(b) {
		t.Fatalf("the game loaded from snapshots differs from a full replay")
	}
	if _, _, err := st.Snapshot(ctx, info.ID, info.Head, fmt.Sprintf("gwab/%d", gwab.New().StateVersion())); err != nil {
		t.Fatalf("no snapshot was taken in %d events: %v", info.Head, err)
	}
	t.Logf("%d actions acknowledged across %d kills; log of %d events", len(acked), kills, len(recs))
}

// turnFrom reads whose step is next from a reply.
func turnFrom(t *testing.T, text string) (clan, player string) {
	t.Helper()
	if im := impactRe.FindStringSubmatch(text); im != nil {
		return "", im[1]
	}
	if m := nextRe.FindStringSubmatch(text); m != nil {
		return clanTag[m[1]], m[2]
	}
	t.Fatalf("the reply names no next step: %q", text)
	return "", ""
}
