package sgboh

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Effects is what a step of play did: the units and leaders it changed,
// as they stand after it, the sequence of play after it, the lines that
// tell it, and what to draw of it. The dice it rolled are in the event
// itself (engine.Event.Draws), and the lines give each one its meaning.
type Effects struct {
	Units   []Unit   `json:"units,omitempty"`
	Leaders []Leader `json:"leaders,omitempty"`
	Flow    *Flow    `json:"flow,omitempty"`
	Result  string   `json:"result,omitempty"` // set when the battle ends
	Lines   []string `json:"lines"`
	Marks   []Mark   `json:"marks,omitempty"`
	// Ask offers the first question's choices to the player asked.
	Ask *Ask `json:"ask,omitempty"`
}

// Ask is a question put to one player, with its buttons.
type Ask struct {
	Player  engine.PlayerID `json:"player"`
	Choices []Choice        `json:"choices"`
}

// Choice is one answer offered.
type Choice struct {
	Label  string `json:"label"`
	Answer string `json:"answer"`
}

// Mark is something a step did, drawn on the picture after it.
type Mark struct {
	Kind  engine.MarkKind `json:"kind"`
	From  engine.Hex      `json:"from"`
	To    engine.Hex      `json:"to"`
	Hit   bool            `json:"hit,omitempty"`
	Label string          `json:"label,omitempty"`
	Side  int             `json:"side"`
}

// Apply sets what the step changed.
func (e Effects) Apply(s *State) error {
	for _, u := range e.Units {
		p := s.unit(u.ID)
		if p == nil {
			return fmt.Errorf("sgboh: no unit %s", u.ID)
		}
		*p = u
	}
	for _, l := range e.Leaders {
		p := s.leader(l.ID)
		if p == nil {
			return fmt.Errorf("sgboh: no leader %s", l.ID)
		}
		*p = l
	}
	if e.Flow != nil {
		s.Flow = e.Flow.clone()
	}
	if e.Result != "" {
		s.Result = e.Result
	}
	return nil
}

// effects returns the step's effects, whatever its kind.
func (e Effects) effects() Effects { return e }

// Text tells the step.
func (e Effects) Text() string { return strings.Join(e.Lines, "\n") }

// Buttons offers the question's answers to the player asked.
func (e Effects) Buttons() []engine.Button {
	if e.Ask == nil {
		return nil
	}
	out := make([]engine.Button, len(e.Ask.Choices))
	for i, c := range e.Ask.Choices {
		out[i] = engine.Button{Label: c.Label, For: e.Ask.Player, Command: engine.Command{Name: "answer", Options: map[string]string{"reply": c.Answer}}}
	}
	return out
}

// The steps of play. Each records its Effects; the kind says what the
// player did.
type (
	Started   struct{ Effects } // who goes first (3.3)
	Activated struct{ Effects } // a leader or group activated, freely or by continuity (3.2, 5.1)
	Commanded struct{ Effects } // the unit type a leader commands (4.2), or a contingent commander (5.6)
	Moved     struct{ Effects } // a unit or leader moved or turned (6, 7.1)
	Reacted   struct{ Effects } // a question answered (7.16, 8.2, 8.3)
	Fired     struct{ Effects } // missile fire or hit and run (8.1, 9.3)
	Shocked   struct{ Effects } // attacks declared and resolved (8.3)
	Advanced  struct{ Effects } // advance after combat (8.5)
	Rallied   struct{ Effects } // voluntary rally (10.27)
	Ended     struct{ Effects } // an activation ended, with mandatory rally (10.27)
	Passed    struct{ Effects } // a continuity roll failed or declined, or three in a row (3.2)
	Withdrew  struct{ Effects } // an army withdrew or conceded (10.4)
)

func (Started) Kind() string   { return "sgboh.started" }
func (Activated) Kind() string { return "sgboh.activated" }
func (Commanded) Kind() string { return "sgboh.commanded" }
func (Moved) Kind() string     { return "sgboh.moved" }
func (Reacted) Kind() string   { return "sgboh.reacted" }
func (Fired) Kind() string     { return "sgboh.fired" }
func (Shocked) Kind() string   { return "sgboh.shocked" }
func (Advanced) Kind() string  { return "sgboh.advanced" }
func (Rallied) Kind() string   { return "sgboh.rallied" }
func (Ended) Kind() string     { return "sgboh.ended" }
func (Passed) Kind() string    { return "sgboh.passed" }
func (Withdrew) Kind() string  { return "sgboh.withdrew" }

var playBodies = engine.BodyTypes{
	Started{}.Kind():   engine.Decoder[Started](),
	Activated{}.Kind(): engine.Decoder[Activated](),
	Commanded{}.Kind(): engine.Decoder[Commanded](),
	Moved{}.Kind():     engine.Decoder[Moved](),
	Reacted{}.Kind():   engine.Decoder[Reacted](),
	Fired{}.Kind():     engine.Decoder[Fired](),
	Shocked{}.Kind():   engine.Decoder[Shocked](),
	Advanced{}.Kind():  engine.Decoder[Advanced](),
	Rallied{}.Kind():   engine.Decoder[Rallied](),
	Ended{}.Kind():     engine.Decoder[Ended](),
	Passed{}.Kind():    engine.Decoder[Passed](),
	Withdrew{}.Kind():  engine.Decoder[Withdrew](),
}

// work is a decision in progress: a copy of the state the mechanics
// change freely, the lines that tell what happened, and the marks to
// draw. Nothing reaches the game until effects are emitted.
type work struct {
	*State
	base  *State
	tx    *engine.Tx
	lines []string
	marks []Mark
}

func begin(tx *engine.Tx, s *State) *work {
	return &work{State: s.clone(), base: s, tx: tx}
}

// roll throws the ten-sided die read 0 to 9.
func (w *work) roll() int { return w.tx.Roll(engine.D0to9) }

// say adds a line to what the step tells.
func (w *work) say(format string, args ...any) {
	w.lines = append(w.lines, fmt.Sprintf(format, args...))
}

func (w *work) mark(m Mark) { w.marks = append(w.marks, m) }

// effects gathers what changed since the decision began.
func (w *work) effects() Effects {
	e := Effects{Lines: w.lines, Marks: w.marks}
	for i := range w.Units {
		if w.Units[i] != w.base.Units[i] {
			e.Units = append(e.Units, w.Units[i])
		}
	}
	for i := range w.Leaders {
		if w.Leaders[i] != w.base.Leaders[i] {
			e.Leaders = append(e.Leaders, w.Leaders[i])
		}
	}
	if !reflect.DeepEqual(w.Flow, w.base.Flow) {
		f := w.Flow.clone()
		e.Flow = &f
	}
	if w.Result != w.base.Result {
		e.Result = w.Result
	}
	if len(w.Flow.Queue) > 0 && (e.Flow != nil) {
		e.Ask = w.ask(w.Flow.Queue[0])
	}
	if e.Lines == nil {
		e.Lines = []string{}
	}
	return e
}
