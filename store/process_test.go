package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// The helper process's instructions come in its environment.
const (
	helperDB     = "RHAPSODE_STORE_HELPER_DB"
	helperGame   = "RHAPSODE_STORE_HELPER_GAME"
	helperWriter = "RHAPSODE_STORE_HELPER_WRITER"
	helperCount  = "RHAPSODE_STORE_HELPER_COUNT"
)

// TestHelperProcess is not a test: TestAppendProcesses runs the test
// binary again with it selected, as a separate writer process.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(helperDB)
	if path == "" {
		t.Skip("run by TestAppendProcesses")
	}
	id, _ := strconv.ParseInt(os.Getenv(helperGame), 10, 64)
	writer, _ := strconv.Atoi(os.Getenv(helperWriter))
	count, _ := strconv.Atoi(os.Getenv(helperCount))
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range count {
		_, err := appendWithRetry(ctx, s, GameID(id), func(seq engine.Seq) []engine.Record {
			return []engine.Record{rec(seq, "k", fmt.Sprintf(`{"writer":%d,"i":%d}`, writer, i))}
		})
		if err != nil {
			t.Fatalf("writer %d append %d: %v", writer, i, err)
		}
	}
}

// TestAppendProcesses has separate processes append to one game in one
// file, each retrying on conflict, and checks the log is whole.
func TestAppendProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	path := testPath(t)
	s := openAt(t, path)
	g := newGame(t, s, "chan")
	const procs, each = 3, 30

	cmds := make([]*exec.Cmd, procs)
	for w := range cmds {
		cmd := exec.Command(exe, "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(),
			helperDB+"="+path,
			helperGame+"="+strconv.FormatInt(int64(g.ID), 10),
			helperWriter+"="+strconv.Itoa(w),
			helperCount+"="+strconv.Itoa(each),
		)
		cmds[w] = cmd
	}
	outs := make([][]byte, procs)
	done := make(chan int)
	for w, cmd := range cmds {
		go func() {
			outs[w], _ = cmd.CombinedOutput() // the exit status is checked below
			done <- w
		}()
	}
	for range cmds {
		w := <-done
		if !cmds[w].ProcessState.Success() {
			t.Errorf("writer %d: %s\n%s", w, cmds[w].ProcessState, outs[w])
		}
	}
	if t.Failed() {
		return
	}

	recs := mustEvents(t, s, g.ID, 0, 0)
	checkContiguous(t, recs)
	type mark struct{ Writer, I int }
	seen := make(map[mark]bool)
	for _, r := range recs {
		var m mark
		if err := json.Unmarshal(r.Payload, &m); err != nil {
			t.Fatal(err)
		}
		if seen[m] {
			t.Fatalf("record %d duplicates %+v", r.Seq, m)
		}
		seen[m] = true
	}
	if len(recs) != procs*each {
		t.Fatalf("log has %d records, want %d", len(recs), procs*each)
	}
}

// appendWithRetry appends the records mk makes for the next free number,
// reloading the head and retrying on conflict.
func appendWithRetry(ctx context.Context, s *Store, id GameID, mk func(seq engine.Seq) []engine.Record) (conflicts int, err error) {
	for {
		g, err := s.Game(ctx, id)
		if err != nil {
			return conflicts, err
		}
		_, err = s.Append(ctx, id, g.Head, mk(g.Head+1), false)
		if !errors.Is(err, ErrConflict) {
			return conflicts, err
		}
		conflicts++
	}
}
