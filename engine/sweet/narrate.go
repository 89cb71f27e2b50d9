package sweet

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// points writes a number of points with its noun: "1 point", "0.5 points".
func points(f float64) string {
	if engine.Decimal(f) == "1" {
		return "1 point"
	}
	return engine.Decimal(f) + " points"
}

func squares(n float64) string {
	if n == 1 {
		return "1 square"
	}
	return engine.Decimal(n) + " squares"
}

func (b BookOpened) Text() string {
	o := b.Options
	t := fmt.Sprintf("%s opens a game of de Gre and Sweet's ancient rules on a grid of %d by %d squares: %s, armies of %d points. Each side takes a sample army (/army pick) or builds one (/army build); the first takes the south edge.",
		b.Master, o.Cols, o.Rows, engine.Plural(o.Turns, "turn", "turns"), o.Points)
	return t + engine.OpenedFor(b.Bots, "The bot (%s) leads the other side and picks its army now.", "The bot leads both sides (%s), and picks their armies now.")
}

func (b ArmyMustered) Text() string {
	counts, guards := map[Type]int{}, map[Type]int{}
	var order []Type
	for _, u := range b.Units {
		if counts[u.Type] == 0 {
			order = append(order, u.Type)
		}
		counts[u.Type]++
		if u.Guard {
			guards[u.Type]++
		}
	}
	var parts []string
	for _, t := range order {
		p := fmt.Sprintf("%d %s", counts[t], t)
		if guards[t] > 0 {
			p += fmt.Sprintf(" (%d of them guards)", guards[t])
		}
		parts = append(parts, p)
	}
	ids := string(b.Units[0].ID)
	if len(b.Units) > 1 {
		ids += " to " + string(b.Units[len(b.Units)-1].ID)
	}
	return fmt.Sprintf("%s leads the %s on the %s edge: %s (%s), %d points.",
		b.Army.Player, b.Army.Name, b.Side, strings.Join(parts, ", "), ids, b.Army.Points)
}

func (b UnitPlaced) Text() string {
	return fmt.Sprintf("%s is placed in %s, facing %s.", b.Label, b.At, b.Facing)
}

func (b TerrainLaid) Text() string {
	sq := make([]string, len(b.Squares))
	for i, q := range b.Squares {
		sq[i] = q.String()
	}
	name := ""
	if b.Name != "" {
		name = " (" + b.Name + ")"
	}
	if b.Ground == Open {
		if len(sq) == 1 {
			return fmt.Sprintf("%s is open ground again.", sq[0])
		}
		return fmt.Sprintf("%s are open ground again.", strings.Join(sq, " "))
	}
	return fmt.Sprintf("%s: %s ground%s.", strings.Join(sq, " "), b.Ground, name)
}

func (b StandsSet) Text() string {
	return fmt.Sprintf("%s is set at %s.", b.Label, engine.Plural(b.Stands, "stand", "stands"))
}

func (b SideDone) Text() string {
	return fmt.Sprintf("The %s have finished their %s.", b.Name, b.Stage)
}

func (b FirstMoveRolled) Text() string {
	var rolls []string
	for _, r := range b.Rolls {
		rolls = append(rolls, fmt.Sprintf("%s %d, %s %d", b.Names[South], r[0], b.Names[North], r[1]))
	}
	return fmt.Sprintf("Roll for the first move: %s. The %s attack first.", strings.Join(rolls, "; then "), b.Names[b.Attacker])
}

func (b TurnBegan) Text() string {
	return fmt.Sprintf("Turn %d: the %s attack.", b.Turn, b.Name)
}

func (b StageBegan) Text() string {
	var idle []string
	for side := South; side <= North; side++ {
		if b.Idle[side] {
			idle = append(idle, b.Names[side])
		}
	}
	switch b.Stage {
	case Catapults:
		if len(idle) == 2 {
			return "No catapult can shoot."
		}
		return "Catapults shoot (/fire unit: at:), then /done." + idleText(idle, "have no manned catapult with an enemy in range")
	case Missiles:
		if len(idle) == 2 {
			return "No missile troops can shoot."
		}
		return "Missile troops shoot (/fire unit: at:), then /done." + idleText(idle, "have no missile troops with an enemy in range and in sight")
	case Movement:
		for side := South; side <= North; side++ {
			if !b.Idle[side] {
				if len(b.Elephants) > 0 {
					return fmt.Sprintf("The %s move (/move unit: to:), then /done. Before anything moves, roll for each elephant you mean to charge with (/elephant unit:): %s.", b.Names[side], engine.JoinAnd(b.Elephants))
				}
				return fmt.Sprintf("The %s move (/move unit: to:), then /done.", b.Names[side])
			}
		}
	case Supports:
		if len(idle) == 2 {
			return "No unit can support the melees."
		}
		return "Supports are declared (/support unit:), the attacker first, each side ending with /done." + idleText(idle, "have no unit that can support")
	case Melees:
		switch len(b.Melees) {
		case 0:
			return "Each side now chooses its melee deployment indicator in secret for every melee: /mdi choice:."
		case 1:
			return fmt.Sprintf("Each side now chooses its melee deployment indicator for the melee at %s in secret: /mdi choice:.", b.Melees[0])
		}
		return fmt.Sprintf("Each side now chooses a melee deployment indicator in secret for each of the %d melees, at %s, naming its square: /mdi choice: melee:%s.", len(b.Melees), engine.JoinAnd(b.Melees), b.Melees[0])
	}
	return ""
}

func idleText(names []string, what string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" The %s %s.", strings.Join(names, " and the "), what)
}

func (b GameEnded) Text() string {
	if b.Unfought {
		return fmt.Sprintf("The game ends %s.", b.Reason)
	}
	score := ""
	switch {
	case b.Names[South] != "" && b.Mustered != [2]int{}:
		var sides []string
		for side := South; side <= North; side++ {
			sides = append(sides, fmt.Sprintf("the %s mustered %d points, lost %d and have %d standing", b.Names[side], b.Mustered[side], max(b.Mustered[side]-b.Points[side], 0), b.Points[side]))
		}
		score = " " + engine.Capital(strings.Join(sides, "; ")) + "."
	case b.Names[South] != "":
		score = fmt.Sprintf(" Points standing: %s %d, %s %d.", b.Names[South], b.Points[South], b.Names[North], b.Points[North])
	}
	switch {
	case b.How == Conceded:
		return fmt.Sprintf("The game ends %s; the %s win.%s", b.Reason, b.Names[b.Winner], score)
	case b.Winner == Nobody:
		return fmt.Sprintf("The game ends %s.%s It is a draw.", b.Reason, score)
	}
	return fmt.Sprintf("The game ends %s.%s The %s win.", b.Reason, score, b.Names[b.Winner])
}

func (b CatapultFired) Text() string {
	var where string
	if b.Drift == "" {
		where = fmt.Sprintf("rolls %d: the shell lands in %s", b.Roll, b.Landed)
	} else {
		where = fmt.Sprintf("rolls %d: the shell lands %s, in %s", b.Roll, b.Drift, b.Landed)
	}
	var what string
	switch {
	case b.Victim != "":
		what = fmt.Sprintf(" and kills a stand of %s.", b.Victims)
	case b.Sheltered:
		what = ", but the cover there shelters everyone (only a 1 kills in a protected square)."
	case b.Shields:
		what = ", but the archers' cane shields turn it (only a 1 kills them, as in a protected square)."
	default:
		what = " and hits no one."
	}
	return fmt.Sprintf("%s shoots at %s and %s%s", b.Label, b.Target, where, what)
}

func (b MissilesFired) Text() string {
	dice := make([]string, len(b.Dice))
	for i, d := range b.Dice {
		dice[i] = fmt.Sprint(d)
	}
	notes := ""
	if len(b.Notes) > 0 {
		notes = " (" + strings.Join(b.Notes, "; ") + ")"
	}
	roll := "no dice are rolled" + notes
	switch len(dice) {
	case 0:
	case 1:
		roll = fmt.Sprintf("1 die%s: %s", notes, dice[0])
	default:
		roll = fmt.Sprintf("%d dice%s: %s", len(dice), notes, strings.Join(dice, " "))
	}
	result := "No stand falls"
	switch {
	case b.Hits == 1:
		result = "One stand falls"
	case b.Hits > 1:
		result = fmt.Sprintf("%d stands fall", b.Hits)
	}
	return fmt.Sprintf("%s shoots at %s in %s, %s away, where %s; %s. %s.", b.Label, b.Victim, b.At, b.Band, b.Needs, roll, result)
}

func (b Moved) Text() string {
	start, end := b.Path[0], b.Path[len(b.Path)-1]
	var extra []string
	if b.Road {
		extra = append(extra, "along the road")
	}
	for _, l := range b.RunLabels {
		extra = append(extra, "riding down "+l)
	}
	for _, l := range b.CapLabels {
		extra = append(extra, "taking "+l)
	}
	tow := ""
	if b.Towed != "" {
		tow = fmt.Sprintf(", taking the catapult %s along", b.Towed)
	}
	turned := ""
	if b.TowedFacing.Valid() && b.TowedFacing != b.Facing {
		turned = fmt.Sprintf(" The catapult %s faces %s.", b.Towed, b.TowedFacing)
	}
	ex := ""
	if len(extra) > 0 {
		ex = ", " + strings.Join(extra, ", ")
	}
	if b.Charge {
		return fmt.Sprintf("%s charges from %s into %s (%s)%s%s, facing %s.%s %s is a contact square.", b.Label, start, end, squares(b.Cost), tow, ex, b.Facing, turned, end)
	}
	return fmt.Sprintf("%s moves from %s to %s (%s)%s%s, facing %s.%s", b.Label, start, end, squares(b.Cost), tow, ex, b.Facing, turned)
}

func (b ElephantRolled) Text() string {
	if b.Balks() {
		return fmt.Sprintf("%s rolls %d to charge, and will not: it stays where it is this turn.", b.Label, b.Roll)
	}
	return fmt.Sprintf("%s rolls %d to charge: it may charge this turn.", b.Label, b.Roll)
}

func (b Faced) Text() string { return fmt.Sprintf("%s turns to face %s.", b.Label, b.Facing) }

func (b FellBack) Text() string {
	end := b.Path[len(b.Path)-1]
	why := "falls back"
	if b.Morale {
		why = "is down to one stand and falls back toward its own edge"
	}
	if b.Off {
		return fmt.Sprintf("%s %s from %s off the board; it is set aside, and its points still count.", b.Label, why, b.Path[0])
	}
	taking := ""
	if len(b.CapLabels) > 0 {
		taking = fmt.Sprintf(", and takes %s, left there with no stand of its own side", engine.JoinAnd(b.CapLabels))
	}
	return fmt.Sprintf("%s %s from %s to %s%s.", b.Label, why, b.Path[0], end, taking)
}

func (b SupportDeclared) Text() string {
	return fmt.Sprintf("%s faces %s to support the melee at %s.", b.Label, b.Facing, b.At)
}

// text tells the table that a choice was made, never what it was.
func (b MDIChosen) Text() string {
	return fmt.Sprintf("The %s lay their deployment indicator for the melee at %s face down.", b.Name, b.At)
}

func (b MeleeResolved) Text() string {
	var w strings.Builder
	fmt.Fprintf(&w, "Melee at %s: the indicators are turned over together. The %s show %s, the %s %s.",
		b.At, b.Names[South], b.Choices[South], b.Names[North], b.Choices[North])
	switch b.Verdict.Kind {
	case BothWithdraw:
		w.WriteString(" Both withdraw: each side falls back two squares without loss.")
	case Withdraws:
		fmt.Fprintf(&w, " The %s withdraw and get away: they fall back two squares, and no one loses a stand.", b.Names[b.Verdict.Side])
	case Equal:
		fmt.Fprintf(&w, " Equal deployments, %s against %s: each side loses half the weaker side's strength, %s.",
			engine.Decimal(b.Points[South]), points(b.Points[North]), points(b.Losses[South]))
	case Superior:
		sup, inf := b.Verdict.Side, b.Verdict.Side.Other()
		failed := ""
		if b.Choices[inf] == Withdrawal {
			failed = " (their withdrawal fails)"
		}
		fmt.Fprintf(&w, " %s deployment is superior to %s%s; with %s against %s they inflict %s of losses and take %s.",
			engine.Possessive("The "+b.Names[sup]), engine.Possessive("the "+b.Names[inf]), failed, points(b.Points[sup]), engine.Decimal(b.Points[inf]), points(b.Losses[inf]), engine.Decimal(b.Losses[sup]))
	}
	if len(b.Removed) > 0 {
		var parts []string
		for _, r := range b.Removed {
			parts = append(parts, fmt.Sprintf("%s %d", r.Label, r.Stands))
		}
		fmt.Fprintf(&w, " Stands lost: %s.", strings.Join(parts, ", "))
	}
	for side := South; side <= North; side++ {
		for _, r := range b.Odd[side] {
			if r >= 4 {
				fmt.Fprintf(&w, " %s loss leaves part of a stand: the die shows %d, and one more stand goes.", engine.Possessive("The "+b.Names[side]), r)
			} else {
				fmt.Fprintf(&w, " %s loss leaves part of a stand: the die shows %d, and it is let go.", engine.Possessive("The "+b.Names[side]), r)
			}
		}
	}
	if b.Verdict.Kind == Equal || b.Verdict.Kind == Superior {
		fmt.Fprintf(&w, " Left standing: %s %s, %s %s.", b.Names[South], engine.Decimal(b.After[South]), b.Names[North], engine.Decimal(b.After[North]))
	}
	for side := South; side <= North; side++ {
		switch {
		case b.After[side] == 0 && (b.Verdict.Kind == Equal || b.Verdict.Kind == Superior):
			fmt.Fprintf(&w, " The %s have no one left standing.", b.Names[side])
		case b.Destroyed[side]:
			fmt.Fprintf(&w, " Outnumbered three to one, the %s are destroyed.", b.Names[side])
		case b.Retreat[side] && b.Retreat[side.Other()] && b.Verdict.Kind == Equal && b.After[side.Other()] > 0:
			if side == South {
				w.WriteString(" Both sides retreat two squares.")
			}
		case b.Retreat[side] && b.Verdict.Kind != BothWithdraw && b.Verdict.Kind != Withdraws:
			fmt.Fprintf(&w, " The %s retreat two squares.", b.Names[side])
		}
	}
	return w.String()
}

func (b Destroyed) Text() string {
	return fmt.Sprintf("Destroyed %s: %s.", b.Why, strings.Join(b.Labels, ", "))
}

func (b CatapultChanged) Text() string {
	if b.Side == Nobody {
		return fmt.Sprintf("%s is left with no one to hold it; whoever next moves a stand into its square takes it.", b.Label)
	}
	return fmt.Sprintf("The %s take %s.", b.Name, b.Label)
}
