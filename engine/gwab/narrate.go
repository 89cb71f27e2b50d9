package gwab

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

func (b BookOpened) Text() string {
	mode := "its kind to be settled by the number of players"
	if b.ModeSet {
		mode = "as a " + b.Mode.String()
	}
	t := fmt.Sprintf("%s opens a book of Gang Warfare in the Age of Bronze, %s. Raise your clans with /clan raise; each player leads one protagonist and one antagonist clan.%s", b.Master, mode, optionsText(b.Options))
	switch len(b.Bots) {
	case 1:
		t += fmt.Sprintf(" The bot (%s) plays against you and raises its clans now.", b.Bots[0])
	case 2:
		t += fmt.Sprintf(" The bot plays both sides (%s and %s) and raises their clans now.", b.Bots[0], b.Bots[1])
	}
	return t
}

func (b ClanRaised) Text() string {
	var hero, chariot string
	var comps, war, armed []string
	for _, el := range b.Elements {
		if el.Kind != Warband && el.Weapon == Javelin {
			armed = append(armed, string(el.ID))
		}
		switch el.Kind {
		case Hero:
			hero = fmt.Sprintf("the Hero %s (%s)", el.Name, el.ID)
		case Companion:
			comps = append(comps, el.Label())
		case Chariot:
			chariot = fmt.Sprintf("a chariot %s", el.ID)
		case Warband:
			war = append(war, string(el.ID)+" "+el.Weapon.Troops())
		}
	}
	parts := []string{hero}
	if len(comps) > 0 {
		parts = append(parts, "Companions "+strings.Join(comps, " and "))
	}
	parts = append(parts, chariot, "and warbands "+strings.Join(war, ", "))
	line := fmt.Sprintf("%s raises the %s (%s) as %s: %s.", b.Clan.Player, b.Clan.Name, b.Clan.Tag,
		article(b.Clan.Side.String()), strings.Join(nonEmpty(parts), ", "))
	if len(armed) > 0 {
		line += fmt.Sprintf(" On foot, %s carry javelins (9.1).", engine.JoinAnd(armed))
	}
	return line
}

func (b BookStarted) Text() string {
	return fmt.Sprintf("The book begins as a %s. The clans deploy in their huddles on a table %g by %g strides.", b.Mode, b.Board.Width, b.Board.Depth)
}

func (b Placed) Text() string {
	return fmt.Sprintf("%s is placed at %s, facing %s.", b.Name, b.Base.FrontCenter(), b.Base.Facing)
}

func (b RoundDealt) Text() string {
	var parts []string
	for i, d := range b.Order {
		name := string(d.Clan)
		if i < len(b.Names) {
			name = b.Names[i]
		}
		parts = append(parts, fmt.Sprintf("%s %s", name, d.Card))
	}
	return fmt.Sprintf("Round %d. Sequence: %s.", b.Round, strings.Join(parts, ", "))
}

func (b RoundEnded) Text() string { return "" }

func (b StoodAloof) Text() string { return fmt.Sprintf("The %s stand aloof this round.", b.Name) }

func (b Moved) Text() string { return describeMove(b) }

func (b BookEnded) Text() string {
	reason := strings.TrimRight(b.Reason, ". ")
	first, _, _ := strings.Cut(reason, " ")
	switch first {
	case "as", "with", "by", "because", "for", "when", "after", "at", "on", "in", "since", "once":
		return fmt.Sprintf("The book ends %s.", reason)
	}
	// A reason in the game master's own words reads after a colon.
	return fmt.Sprintf("The book ends: %s.", reason)
}

func (b MeleeDrawn) Text() string { return narrateMelee(b) }

func (b PairingVoided) Text() string {
	if b.Reason == "" {
		return ""
	}
	return engine.Capital(b.Reason) + "."
}

func (b ImpactWon) Text() string {
	return fmt.Sprintf("%s plays %s against %s and wins an impact of %s on %s.", b.VictorLabel, b.Win, b.Lose, strideText(float64(b.Strides)), b.TargetLabel)
}

func (b ImpactSpent) Text() string { return describeImpact(b) }

func (b FightEnded) Text() string { return "" }

func (b Wounded) Text() string { return describeWound(b) }

func (b HeroSucceeded) Text() string {
	return fmt.Sprintf("%s takes the fallen Hero's place and leads the %s as a Class 1 Hero with no honor (10.1.3).", b.Name, b.ClanName)
}

func (b ClanLeft) Text() string {
	if b.Retreat {
		return fmt.Sprintf("The %s leave the field.", b.Name)
	}
	if b.Withdraw {
		return fmt.Sprintf("With no Hero or Companion left, the %s disengage from every melee and withdraw toward their own edge, out of the fight, at the start of each round until they are off the table (10.1.3).", b.Name)
	}
	return fmt.Sprintf("With no Hero or Companion left, the %s leave the field (10.1.3).", b.Name)
}

func (b HonorChanged) Text() string { return describeHonor(b) }

func (b Fired) Text() string { return describeFire(b) }

func nonEmpty(parts []string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// status describes the book for /status.
func status(s *State) string {
	var b strings.Builder
	switch s.Phase {
	case Gathering:
		fmt.Fprintf(&b, "The book is gathering (game master %s).", s.Master)
		if s.ModeSet {
			fmt.Fprintf(&b, " It will be a %s.", s.Mode)
		}
		b.WriteString(" Each player raises his clans with /clan raise; the game master gives /book start.")
	case Playing:
		fmt.Fprintf(&b, "A %s, round %d.", s.Mode, s.Round)
		if err := s.inChallenge(); err != nil {
			b.WriteString(" " + err.(*engine.Refusal).Text)
		} else if s.Fight != nil && s.Fight.Impact != nil {
			v := s.Clan(s.Element(s.Fight.Impact.Victor).Clan)
			fmt.Fprintf(&b, " The melee waits for %s to spend %s impact (/impact).", v.Player, possessive(v.Name))
		} else if cur := s.Current(); cur != nil {
			fmt.Fprintf(&b, " It is %s turn (%s).", possessive(cur.Name), cur.Player)
		}
	case Ended:
		fmt.Fprintf(&b, "The book has ended %s.", s.Result)
	}
	if len(s.Clans) == 0 {
		b.WriteString("\nNo clans have been raised yet.")
	}
	if s.Phase == Playing {
		var pairs []string
		for _, p := range s.contacts() {
			pairs = append(pairs, p[0].Label()+" with "+p[1].Label())
		}
		if len(pairs) > 0 {
			fmt.Fprintf(&b, "\nIn contact, to fight at the end of the round (5, 10): %s.", strings.Join(pairs, "; "))
		}
	}
	for _, cl := range s.Clans {
		fmt.Fprintf(&b, "\n%s (%s), %s, led by %s:", cl.Name, cl.Tag, cl.Side, cl.Player)
		if cl.Gone {
			b.WriteString(" they have left the field.")
			continue
		}

		for _, d := range s.Order {
			if d.Clan == cl.Tag {
				fmt.Fprintf(&b, " card %s.", d.Card)
			}
		}
		switch n := len(cl.Jokers); {
		case n == 1:
			b.WriteString(" A Joker kept.")
		case n > 1:
			fmt.Fprintf(&b, " %d Jokers kept.", n)
		}
		for _, el := range s.ClanElements(cl.Tag) {
			fmt.Fprintf(&b, "\n  %s", el.Label())
			if lim := s.woundLimit(el); lim > 0 && el.Status == Standing {
				fmt.Fprintf(&b, " wounds %d/%d", el.Wounds, lim)
			}
			if s.isHero(el) && el.Status == Standing {
				fmt.Fprintf(&b, ", honor %d (%+d this book, Class %d)", el.Honor, el.Gained, min(classFor(el.Honor), 4))
			}
			switch {
			case el.Status == Fallen:
				b.WriteString(" fallen")
				switch {
				case el.ArmorTaken && el.ArmorWonBy == el.Clan:
					b.WriteString(", his armor taken back by his clan")
				case el.ArmorTaken:
					b.WriteString(", his armor taken")
				}
			case el.Saved:
				b.WriteString(" fallen, carried off the field")
			case el.Status == Removed:
				b.WriteString(" out of the fight")
			case el.Status == Withdrawing:
				fmt.Fprintf(&b, " withdrawing, at %s", el.Base.FrontCenter())
			case el.Placed:
				fmt.Fprintf(&b, " at %s facing %s", el.Base.FrontCenter(), el.Base.Facing)
			}
			b.WriteString(s.crewNote(el))
			if el.Carrying != "" {
				fmt.Fprintf(&b, ", carrying the body of %s", s.Element(el.Carrying).Name)
			}
			if el.Armor != "" {
				fmt.Fprintf(&b, ", bearing the armor of %s", s.Element(el.Armor).Name)
			}
		}
	}
	return b.String()
}

// possessive writes "the Trojans'" or "the Lycian band's".
func possessive(clan string) string { return "the " + owner(clan) }

// owner writes a name as an owner: "Achilles'", "Hector's".
func owner(name string) string { return engine.Possessive(name) }

func narrateMelee(b MeleeDrawn) string {
	var lines []string
	lines = append(lines, fmt.Sprintf("Melee, round %d:", b.Round))
	for i, p := range b.Pairings {
		a, c := string(p.A), string(p.B)
		if 2*i+1 < len(b.Labels) {
			a, c = b.Labels[2*i], b.Labels[2*i+1]
		}
		if p.FuryBoth {
			lines = append(lines, fmt.Sprintf("  %s and %s both hold the fury of Ares and draw no cards.", a, c))
			continue
		}
		lines = append(lines, fmt.Sprintf("  %s draws %s; %s draws %s.", a, cardWords(p.ACards), c, cardWords(p.BCards)))
	}
	for _, k := range b.Kept {
		lines = append(lines, fmt.Sprintf("  The %s draw a Joker and keep it for Special Dispensation (11.1).", k.Name))
	}
	return strings.Join(lines, "\n")
}

func cardWords(cards []engine.Card) string {
	var s []string
	for _, c := range cards {
		s = append(s, c.String())
	}
	if len(s) == 0 {
		return "nothing"
	}
	return strings.Join(s, " ")
}

func describeWound(b Wounded) string {
	by := ""
	if b.ByLabel != "" {
		by = b.ByLabel + " wounds "
	}
	why := ""
	if b.Why != "" {
		why = " (" + b.Why + ")"
	}
	switch {
	case b.Weakened:
		return fmt.Sprintf("%s bears %d wounds, as many as %s can (10.1.3).%s", b.Label, b.Wounds, b.Why, fallText(b))
	case by == "":
		return fmt.Sprintf("%s takes a wound%s: %d of %d.%s", b.Label, why, b.Wounds, b.Limit, fallText(b))
	}
	return fmt.Sprintf("%s%s%s: %d of %d.%s", by, b.Label, why, b.Wounds, b.Limit, fallText(b))
}

func fallText(b Wounded) string {
	if !b.Falls() {
		return ""
	}
	return " " + b.Label + " is out of the fight."
}
