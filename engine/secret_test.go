package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// bid is a sealed bid; shown reveals the bids of a round.
type bid struct {
	Round  int    `json:"round"`
	Player string `json:"player"`
	Amount int    `json:"amount,omitempty"`
}
type shown struct{ Round int }

func (bid) Kind() string   { return "auction.bid" }
func (b bid) Key() string  { return b.Player + "/" + string(rune('0'+b.Round)) }
func (b bid) Public() Body { b.Amount = 0; return b }
func (shown) Kind() string { return "auction.shown" }
func (s shown) Reveals() []string {
	return []string{"alice/" + string(rune('0'+s.Round)), "bob/" + string(rune('0'+s.Round))}
}

type auction struct{ pack }

func (auction) DecodeBody(kind string, data []byte) (Body, error) {
	return BodyTypes{"auction.bid": Decoder[bid](), "auction.shown": Decoder[shown]()}.Decode(kind, data)
}

// TestRedact: a sealed body is written in its public form until a later
// record reveals it, and other records pass untouched.
func TestRedact(t *testing.T) {
	var recs []Record
	for i, b := range []Body{bid{1, "alice", 7}, bid{1, "bob", 9}, shown{1}, bid{2, "alice", 5}} {
		rec, err := Event{Seq: Seq(i + 1), Body: b}.Record()
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	out, err := Redact(auction{}, recs)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(out)
	for _, want := range []string{`"amount":7`, `"amount":9`} {
		if !strings.Contains(string(all), want) {
			t.Errorf("a revealed bid is hidden: no %s in %s", want, all)
		}
	}
	if strings.Contains(string(out[3].Payload), "5") || !strings.Contains(string(out[3].Payload), "alice") {
		t.Errorf("the unrevealed bid is written %s", out[3].Payload)
	}
	if string(recs[3].Payload) == string(out[3].Payload) {
		t.Error("Redact changed the caller's records in place or not at all")
	}
}
