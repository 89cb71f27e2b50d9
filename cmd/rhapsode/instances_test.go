package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/bot/discord"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/store"
	"github.com/rhapsode/rhapsode/store/postgres"
)

// pgServer is a PostgreSQL server of the test's own, which it may restart.
type pgServer struct {
	url, dir, bin string
}

// startPostgres starts a throwaway server with .ci/postgres, or skips the
// test when no PostgreSQL server binaries are installed.
func startPostgres(t *testing.T) *pgServer {
	t.Helper()
	if dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl"); len(dirs) == 0 {
		t.Skip("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin): this test restarts a server of its own; install Debian's postgresql to run it")
	}
	out, err := exec.Command("../../.ci/postgres").Output()
	if err != nil {
		t.Fatalf(".ci/postgres: %v", err)
	}
	pg := &pgServer{}
	for _, f := range strings.Fields(strings.TrimPrefix(strings.TrimSpace(string(out)), "export ")) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "PGTMP":
			pg.dir = v
		case "PGBIN":
			pg.bin = v
		case "RHAPSODE_TEST_POSTGRES":
			pg.url = v
		}
	}
	if pg.url == "" || pg.dir == "" {
		t.Fatalf(".ci/postgres printed %q", out)
	}
	t.Cleanup(func() {
		pg.ctl("-m", "immediate", "stop")
		os.RemoveAll(pg.dir)
	})
	return pg
}

// ctl runs pg_ctl on the server, as the postgres user when the test runs
// as root (the server refuses root).
func (pg *pgServer) ctl(args ...string) error {
	// The server's output goes to its log, not to a pipe of ours that it
	// would hold open.
	argv := append([]string{filepath.Join(pg.bin, "pg_ctl"), "-D", filepath.Join(pg.dir, "data"), "-l", filepath.Join(pg.dir, "log"), "-w"}, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	if os.Geteuid() == 0 {
		cmd = exec.Command("su", "postgres", "-s", "/bin/sh", "-c", strings.Join(argv, " "))
	}
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl %v: %v: %s", args, err, out)
	}
	return nil
}

// screens stands in for Discord's REST API: it keeps what each
// interaction's response came to show (by the interaction's token), and
// every version written to it.
type screens struct {
	mu sync.Mutex
	// writes are the words written over each response, in order, and
	// pictured says whether its latest picture is there.
	writes   map[string][]string
	pictured map[string]bool
	// unpictured says a picture shown was taken away again.
	unpictured map[string]bool
}

func (s *screens) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	var payload map[string]any
	files := 0
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(32 << 20); err == nil {
			json.Unmarshal([]byte(r.FormValue("payload_json")), &payload)
			for _, fs := range r.MultipartForm.File {
				files += len(fs)
			}
		}
	} else {
		json.NewDecoder(r.Body).Decode(&payload)
	}
	// PATCH /api/v10/webhooks/{app}/{token}/messages/@original
	parts := strings.Split(r.URL.Path, "/")
	if r.Method == http.MethodPatch && len(parts) == 8 && parts[3] == "webhooks" && parts[7] == "@original" {
		token := parts[5]
		s.mu.Lock()
		if content, ok := payload["content"].(string); ok {
			s.writes[token] = append(s.writes[token], content)
		}
		if _, named := payload["attachments"]; named {
			if s.pictured[token] && files == 0 {
				s.unpictured[token] = true
			}
			s.pictured[token] = files > 0
		}
		s.mu.Unlock()
	}
	io.WriteString(w, `{"id":"900000000000000001","channel_id":"500000000000000001"}`)
}

// shown returns what the response of the interaction with token came to
// show, every version of it, whether its picture is there, and whether a
// picture it showed was taken away.
func (s *screens) shown(token string) (last string, all []string, pictured, unpictured bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all = s.writes[token]
	if len(all) > 0 {
		last = all[len(all)-1]
	}
	return last, all, s.pictured[token], s.unpictured[token]
}

// instance is one `rhapsode serve` process, started again after a kill on
// the same address.
type instance struct {
	bin, addr string
	env       []string
	mu        sync.Mutex
	cmd       *exec.Cmd
}

func (in *instance) start() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	cmd := exec.Command(in.bin, "serve", "--interactions", in.addr, "--db", in.env[0])
	cmd.Env = append(os.Environ(), in.env[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // gone with the test
	cmd.Stderr = io.Discard
	if testing.Verbose() {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	in.cmd = cmd
	for i := 0; ; i++ {
		resp, err := http.Get("http://" + in.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if i == 500 {
			return fmt.Errorf("instance on %s never listened: %v", in.addr, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (in *instance) kill() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.cmd.Process.Signal(syscall.SIGKILL)
	in.cmd.Wait()
}

// stop asks the instance to stop and waits for it: it finishes the
// interactions in hand.
func (in *instance) stop() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { in.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(40 * time.Second):
		in.cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
}

const (
	dupGuild   = "600000000000000001"
	dupChannel = "500000000000000001"
)

var dupPlayers = map[string]string{"alice": "100000000000000001", "bob": "100000000000000002", "carol": "100000000000000003"}

// interaction writes a slash command of user's as Discord sends it: name
// may have a sub-command ("book open"); options are strings.
func interaction(n int, user, name string, opts ...string) (id, token string, body []byte) {
	ms := time.Now().UnixMilli() - 1420070400000
	id = strconv.FormatInt(ms<<22|int64(n%4096), 10)
	token = fmt.Sprintf("token-%d", n)
	var options []map[string]any
	for _, o := range opts {
		k, v, _ := strings.Cut(o, ":")
		options = append(options, map[string]any{"name": k, "type": 3, "value": v})
	}
	data := map[string]any{"id": "300000000000000001", "name": name, "type": 1, "options": options}
	if cmd, sub, ok := strings.Cut(name, " "); ok {
		data = map[string]any{"id": "300000000000000001", "name": cmd, "type": 1,
			"options": []map[string]any{{"name": sub, "type": 1, "options": options}}}
	}
	uid := dupPlayers[user]
	body, _ = json.Marshal(map[string]any{
		"id": id, "application_id": "700000000000000001", "type": 2, "token": token, "version": 1,
		"guild_id": dupGuild, "channel_id": dupChannel, "data": data,
		"member": map[string]any{"permissions": "2147601473", "roles": []string{},
			"user": map[string]any{"id": uid, "username": user, "global_name": user}},
	})
	return id, token, body
}

// TestInstancesShowEachAnswerOnce runs three `rhapsode serve` instances on
// one PostgreSQL server of the test's own and plays a raid of three
// players through them, every interaction delivered to two instances at
// once. Now and then an instance is killed (SIGKILL) while deliveries are
// in flight and started again, and once the database server itself is
// restarted at once (immediate shutdown). Afterwards every interaction is
// counted: lost (its response shows a step the log lacks), doubled (it
// made more than one step), wrong player (a step by another player than
// its own), and wrong on screen (its response was ever written with words
// other than its one answer, or shows a step the log does not have, or
// no step where the log has one, or lost its picture). All must be zero.
func TestInstancesShowEachAnswerOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server and three instances")
	}
	pg := startPostgres(t)
	bin := buildBinary(t)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	scr := &screens{writes: map[string][]string{}, pictured: map[string]bool{}, unpictured: map[string]bool{}}
	fake := httptest.NewServer(http.HandlerFunc(scr.serve))
	defer fake.Close()
	env := []string{pg.url, "DISCORD_PUBLIC_KEY=" + hex.EncodeToString(pub), "DISCORD_TOKEN=test-token", "RHAPSODE_DISCORD_REST=" + fake.URL}
	instances := make([]*instance, 3)
	for i := range instances {
		instances[i] = &instance{bin: bin, addr: freeAddr(t), env: env}
		if err := instances[i].start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(instances[i].kill)
	}
	ctx := context.Background()
	st, err := postgres.Open(ctx, pg.url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	client := &http.Client{Timeout: 10 * time.Second}
	deliver := func(in *instance, body []byte) {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		req, _ := http.NewRequest(http.MethodPost, "http://"+in.addr+"/interactions", bytes.NewReader(body))
		req.Header.Set("X-Signature-Timestamp", ts)
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), body...))))
		resp, err := client.Do(req)
		if err != nil && testing.Verbose() {
			t.Logf("%s: %v", in.addr, err)
		}
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if testing.Verbose() && resp.StatusCode != http.StatusOK {
				t.Logf("%s: %d %s", in.addr, resp.StatusCode, b)
			}
		}
	}
	// steps returns the game's steps as recorded: actor and what the
	// first event of each was, in order.
	steps := func() []step {
		for range 200 {
			g, err := st.LatestGame(ctx, dupGuild, dupChannel)
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			if err != nil {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			recs, err := st.Events(ctx, g.ID, 0, 0)
			if err != nil {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			var out []step
			for _, r := range recs {
				// (Opening a book records the table's own step first.)
				if r.Step && r.Kind != "table.opened" {
					var a gwab.StoodAloof
					json.Unmarshal(r.Payload, &a)
					out = append(out, step{r.Actor, r.Kind, a.Name})
				}
			}
			return out
		}
		t.Fatal("the game could not be read")
		return nil
	}
	awaited := func() string {
		for range 200 {
			g, err := st.ActiveGame(ctx, dupGuild, dupChannel)
			if err == nil {
				var game *engine.Game
				if game, err = bot.Load(ctx, st, gwab.New(), g.ID); err == nil {
					for _, a := range gwab.New().Awaited(game.State) {
						for name, id := range dupPlayers {
							if string(a.Player) == id {
								return name
							}
						}
					}
					return "alice"
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatal("the game could not be read")
		return ""
	}

	var sentLog []sent
	// lastStep is when each player last saw a step of his answered: his
	// next command comes after he could have seen it (discord.SeenAfter),
	// as a person's would.
	lastStep := map[string]time.Time{}
	rng := mrand.New(mrand.NewPCG(37, 1))
	play := func(n int, user, name string, chaos func()) {
		if wait := time.Until(lastStep[user].Add(discord.SeenAfter + 100*time.Millisecond)); wait > 0 {
			time.Sleep(wait)
		}
		_, token, body := interaction(n, user, name[:strings.IndexByte(name+"|", '|')], strings.Split(name, "|")[1:]...)
		before := len(steps())
		a := rng.IntN(3)
		b := (a + 1 + rng.IntN(2)) % 3
		later := time.Duration(rng.IntN(150)) * time.Millisecond
		var wg sync.WaitGroup
		wg.Go(func() { deliver(instances[a], body) })
		wg.Go(func() {
			time.Sleep(later)
			deliver(instances[b], body)
		})
		if chaos != nil {
			wg.Go(chaos)
		}
		wg.Wait()
		// The answer is written after the response: wait a little for it.
		for range 100 {
			if last, _, _, _ := scr.shown(token); last != "" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		after := steps()
		sentLog = append(sentLog, sent{user: user, token: token, steps: after[before:]})
		if len(after) > before {
			lastStep[user] = time.Now()
		}
		if testing.Verbose() {
			last, _, _, _ := scr.shown(token)
			t.Logf("%d %s %s: %d steps; %.60q", n, user, name, len(after)-before, last)
		}
	}

	n := 0
	for _, line := range []string{"alice:book open|mode:raid",
		"alice:clan raise|name:Myrmidons|hero:Achilles|side:protagonist|warbands:spear,spear,bow",
		"alice:clan raise|name:Lycians|hero:Sarpedon|side:antagonist|warbands:sword,javelin,sling",
		"bob:clan raise|name:Trojans|hero:Hector|side:antagonist|warbands:spear,sword,bow",
		"bob:clan raise|name:Achaeans|hero:Ajax|side:protagonist|warbands:spear,spear,javelin",
		"carol:clan raise|name:Dardanians|hero:Aeneas|side:antagonist|warbands:spear,sword,bow",
		"carol:clan raise|name:Argives|hero:Diomedes|side:protagonist|warbands:spear,spear,javelin",
		"alice:book start",
	} {
		user, cmd, _ := strings.Cut(line, ":")
		n++
		play(n, user, cmd, nil)
	}
	const rounds = 48
	kills, restarts := 0, 0
	for k := range rounds {
		var chaos func()
		switch {
		case k == rounds/2:
			delay := time.Duration(rng.IntN(100)) * time.Millisecond
			chaos = func() {
				time.Sleep(delay)
				if err := pg.ctl("-m", "immediate", "restart"); err != nil {
					t.Error(err)
				}
				restarts++
			}
		case k%6 == 3:
			victim := instances[rng.IntN(3)]
			delay := time.Duration(rng.IntN(40)) * time.Millisecond
			chaos = func() {
				time.Sleep(delay)
				victim.kill()
				kills++
				if err := victim.start(); err != nil {
					t.Error(err)
				}
			}
		}
		n++
		play(n, awaited(), "aloof", chaos)
	}
	for _, in := range instances {
		in.stop()
	}

	// Steps recorded once every instance stopped belong to the last.
	final := steps()
	counted := 0
	for _, s := range sentLog {
		counted += len(s.steps)
	}
	sentLog[len(sentLog)-1].steps = append(sentLog[len(sentLog)-1].steps, final[counted:]...)

	c := audit(t, scr, sentLog)
	t.Logf("%d interactions, each delivered twice, over 3 instances; %d instance kills, %d database restart; %d steps made",
		len(sentLog), kills, restarts, c.made)
	t.Logf("lost %d, doubled %d, wrong player %d, wrong on screen %d; not shown %d (first taker killed before it answered), shown without picture %d",
		c.lost, c.doubled, c.wrongPlayer, c.wrongScreen, c.unshown, c.unpictured)
	if c.made < rounds/3 {
		t.Errorf("only %d steps were made in %d interactions of play", c.made, rounds)
	}
}

// step is one step of the game as recorded: who gave it, the kind of its
// first event, and the clan that stood aloof in it.
type step struct {
	actor engine.PlayerID
	kind  string
	clan  string
}

// sent is one interaction of play and the steps the log has of it.
type sent struct {
	user, token string
	steps       []step
}

// tally counts what went wrong over the interactions of play.
type tally struct {
	lost, doubled, wrongPlayer, wrongScreen, unshown, unpictured, made int
}

// audit checks each interaction's steps in the log against what its
// response showed on screen, reporting every fault and counting them.
func audit(t *testing.T, scr *screens, sentLog []sent) tally {
	t.Helper()
	var c tally
	for _, s := range sentLog {
		last, all, pictured, lostPicture := scr.shown(s.token)
		c.made += len(s.steps)
		if len(s.steps) > 1 {
			c.doubled++
			t.Errorf("%s: %d steps for one interaction: %+v", s.token, len(s.steps), s.steps)
		}
		for _, st := range s.steps {
			if string(st.actor) != dupPlayers[s.user] {
				c.wrongPlayer++
				t.Errorf("%s: %s's interaction made a step of %s", s.token, s.user, st.actor)
			}
		}
		for _, w := range all {
			if w != all[0] || strings.Contains(w, "already in hand") {
				c.wrongScreen++
				t.Errorf("%s: the response was written %q", s.token, all)
				break
			}
		}
		if lostPicture {
			c.wrongScreen++
			t.Errorf("%s: the response's picture was taken away", s.token)
		}
		// A step's answer begins with it ("The Myrmidons stand aloof…");
		// a refusal may tell an earlier one.
		aloof := strings.HasPrefix(last, "The ") && strings.Contains(last, "stand aloof")
		switch {
		case last == "":
			c.unshown++
		case aloof && len(s.steps) == 0:
			c.lost++
			t.Errorf("%s: the response shows %q, and the log has no step of it", s.token, last)
		case len(s.steps) == 1 && s.steps[0].kind == "gwab.stood-aloof" && !strings.Contains(last, "The "+s.steps[0].clan+" stand aloof"):
			c.wrongScreen++
			t.Errorf("%s: the log has the %s aloof, and the response shows %q", s.token, s.steps[0].clan, last)
		case len(s.steps) == 1 && !pictured && aloof:
			c.unpictured++
		}
	}
	return c
}
