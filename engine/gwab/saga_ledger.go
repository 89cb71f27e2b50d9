package gwab

import "github.com/rhapsode/rhapsode/engine"

// The saga's record as the engine's ledger (engine.Ledgered): what the
// published pages show of a saga (its standings, each Hero's books,
// deeds and lines of honor, 5.5), read without knowing GWAB.

var _ engine.Ledgered = SagaRules{}

// Ledger is the saga's record as st, a saga's state, stands.
func (SagaRules) Ledger(st engine.State) engine.Ledger {
	s, ok := st.(*Saga)
	if !ok {
		return engine.Ledger{}
	}
	r := engine.Ledger{Name: s.Name, Ended: s.Ended}
	for i, h := range s.Heroes {
		rh := engine.LedgerHero{Player: h.Player, Books: h.Books,
			Kills: h.Deeds[Kills], Wounds: h.Deeds[WoundsTaken], Captures: h.Deeds[ArmorWon] + h.Deeds[ChariotsTaken]}
		for _, d := range s.Deeds(HeroID(i + 1)) {
			rh.Deeds = append(rh.Deeds, engine.DeedCount{Deed: string(d.Deed), N: d.N})
		}
		r.Heroes = append(r.Heroes, rh)
	}
	for _, h := range s.Standings() {
		r.Standings = append(r.Standings, engine.Standing{Rank: h.Rank, Hero: int(h.Hero), Name: h.Name, Clan: h.Clan,
			Player: h.Player, Honor: h.Honor, Title: h.Title, FellIn: h.FellIn})
	}
	for _, b := range s.Books {
		r.Books = append(r.Books, engine.LedgerBook{Ref: b.Ref, Kind: b.Mode.String(), Result: b.Result, Closed: b.Closed})
	}
	for _, l := range s.Ledger {
		r.Lines = append(r.Lines, engine.LedgerLine{Hero: int(l.Hero), Book: l.Book, Points: l.Points})
	}
	return r
}

// Entries are the lines of honor e wrote and the ranks it changed: the
// lines a new saga starts with (the Heroes it takes over from the last),
// a line entered from a book or by the Herald, and a Hero's rank changing
// (4.5). after is the saga once e is applied.
func (SagaRules) Entries(e engine.Event, after engine.State) []engine.LedgerEntry {
	s, ok := after.(*Saga)
	if !ok {
		return nil
	}
	switch b := e.Body.(type) {
	case SagaStarted:
		totals := map[HeroID]int{}
		out := make([]engine.LedgerEntry, len(b.Lines))
		for i, l := range b.Lines {
			totals[l.Hero] += l.Points
			out[i] = engine.LedgerEntry{Hero: int(l.Hero), Points: l.Points, Reason: l.Reason, Total: totals[l.Hero]}
		}
		return out
	case Entered:
		le := engine.LedgerEntry{Hero: int(b.Hero), Book: b.Book, Round: b.Round, Points: b.Points, Reason: b.Reason, Total: s.Points(b.Hero)}
		if b.Book > 0 && b.Book <= len(s.Books) {
			le.BookRef, le.Step = s.Books[b.Book-1].Ref, b.Step
		}
		return []engine.LedgerEntry{le}
	case RankChanged:
		return []engine.LedgerEntry{{Hero: int(b.Hero), IsRank: true, Rose: b.To > b.From, Rank: RankTitle(b.To), Total: b.Total}}
	}
	return nil
}
