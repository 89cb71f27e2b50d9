package bot

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sectionCited finds a rule section a help cites in passing: "(9.1)",
// "(8, 9.2)", "(1.D)", "(§8a)", "(Movement 6)".
var sectionCited = regexp.MustCompile(`\((\d+(?:\.[\dA-Z]+)*(?:[,;] [^()]*)?|§[^()]*|(?:[A-Z][a-z]+ )+(?:\d|[A-Z])[^()]*)\)`)

// helpSections is every rule section the commands' help cites, each
// checked against the rule texts: "cmd" is the section /help COMMAND
// gives as its Rules line, "cmd (in its help)" one its sentence cites in
// passing, "cmd opt:" one an option's help cites. The last column says
// what that section of the text is about.
var helpSections = [][4]string{
	{"gwab", "saga publish", "5.5", "the Herald makes the standings public"},
	{"gwab", "book open terrain:", "13.1", "terrain that limits chariots"},
	{"gwab", "book open javelins:", "13.2", "a chariot's limited load of javelins"},
	{"gwab", "clan raise", "2.3", "what a clan is made of"},
	{"gwab", "clan raise armed:", "9.1", "which elements carry missiles"},
	{"gwab", "book start", "7, 6.1", "deployment in a huddle; the round's deal"},
	{"gwab", "book end", "6.2", "the end of a session by consent"},
	{"gwab", "move", "8", "movement"},
	{"gwab", "aloof", "6.1", "standing aloof in the round"},
	{"gwab", "drive", "8, 9.2", "movement; a rider's missile fire from a chariot"},
	{"gwab", "drive back:", "8.5", "backing a chariot"},
	{"gwab", "drive javelin:", "8.6", "a javelin thrown during a chariot's move"},
	{"gwab", "drive aim:", "9.5", "aiming at the rider or the driver"},
	{"gwab", "drive mount:", "8.2.1", "mounting prorated against the drive"},
	{"gwab", "drive dismount:", "8.2.1", "dismounting prorated against the drive"},
	{"gwab", "mount", "8.2", "mounting costs a stride"},
	{"gwab", "dismount", "8.2", "dismounting costs a stride"},
	{"gwab", "fire", "9", "missile fire"},
	{"gwab", "fire aim:", "9.5", "aiming at the rider or the driver"},
	{"gwab", "recover", "8.9", "recovering a fallen Hero or Companion"},
	{"gwab", "recover (in its help)", "3.5", "a chariot's driver gets down to recover his fallen leader or his armor"},
	{"gwab", "loot", "10.3", "capturing armor"},
	{"gwab", "drop", "6.1, 10.3.3", "dropping armor or bodies; handing armor on"},
	{"gwab", "impact", "10.1.3", "the combat results: impacts"},
	{"gwab", "challenge", "10.2", "challenge melee"},
	{"gwab", "answer", "10.2", "accepting or declining a challenge"},
	{"gwab", "invoke", "11.2", "regular dispensation, once a game"},
	{"gwab", "joker", "11.1", "special dispensation: the kept Joker"},
	{"gwab", "hero name", "10.1.3", "a Companion becomes the new Hero under a new name"},
	{"gwab", "setup terrain", "13.1", "terrain"},
	{"gwab", "setup place", "7", "deployment"},
	{"gwab", "successor", "10.1.3", "the owner chooses which Companion becomes Hero"},
	{"gwab", "ruling honor:", "4", "honor points"},
	{"gwab", "saga start", "4, 5", "honor points; the Herald"},
	{"gwab", "saga start role:", "5.1", "the Herald and an acting Herald"},
	{"gwab", "saga start carry:", "13.3", "carrying honor over to the next saga"},
	{"gwab", "saga start carry:", "5.2", "a new saga starts every Hero at 100"},
	{"gwab", "saga schedule", "4, 5.4", "honor points; the Herald's penalties for absence"},
	{"gwab", "saga standings", "5.5", "the Herald makes the standings public"},
	{"sweet", "army pick", "Sample Army Compositions", "the seven sample armies"},
	{"sweet", "fire", "Catapult Fire, Missile Fire", "the two shooting stages"},
	{"sweet", "move", "Movement", "movement"},
	{"sweet", "move ride:", "Morale 3", "cavalry, chariots and elephants may run down a lone stand of foot"},
	{"sweet", "elephant", "Charging and Melee 6", "an elephant's roll before movement, if a charge is wanted"},
	{"sweet", "face", "Movement 6", "facing a side or corner, changed freely"},
	{"sweet", "detach", "Movement 3", "only light infantry, light cavalry, catapults and commanders separate or reform"},
	{"sweet", "reform", "Movement 3", "only light infantry, light cavalry, catapults and commanders separate or reform"},
	{"sweet", "support", "Charging and Melee 2 to 4", "declaring supports and who may support"},
	{"sweet", "mdi", "Melee Procedure", "the melee deployment indicators"},
	{"sweet", "concede", "Morale 4", "how a game ends"},
	{"sweet", "book end", "Morale 4", "how a game ends and is counted"},
	{"sweet", "setup terrain", "Movement 1; Missile Fire 3; Charging and Melee 8", "roads; protected squares against fire and in melee"},
	{"btg", "army build", "§8a", "civilization attributes (the first of the two §8s)"},
	{"btg", "army build civ:", "§8a", "civilization attributes"},
	{"btg", "move (in its help)", "§1", "movement, driven by the cards"},
	{"btg", "charge (in its help)", "1.D", "who may charge, at double the move, on open ground"},
	{"btg", "avoid", "5.A", "charged cavalry or camelry may try to avoid"},
	{"btg", "stand", "5.A", "charged cavalry or camelry may try to avoid"},
	{"btg", "fire", "§2; siege engines §7", "the fire phase; the siege expansion"},
	{"btg", "decide", "§6", "random events"},
	{"goliath", "ruling (in its help)", "Rule One", "the referee's judgment is supreme"},
	{"sgboh", "activate line:", "4.2", "leader capabilities and the line command table"},
	{"sgboh", "command", "4.2", "leader capabilities: moving, then ordering a line"},
	{"sgboh", "delegate", "5.6", "Macedonian contingent commanders"},
	{"sgboh", "move with:", "4.2", "a unit stacked with the leader moves with him"},
	{"sgboh", "advance", "8.5", "advance after combat"},
	{"sgboh", "hitrun", "9.3, 9.41", "SK and LI; missile cavalry's hit and run"},
	{"sgboh", "rally", "10.27", "rally, mandatory and to remove missile hits"},
	{"sgboh", "setup side first:", "3.3", "who goes first"},
	{"sgboh", "setup leader under:", "5.6", "Macedonian contingent commanders"},
	{"sgboh", "setup unit line:", "4.2", "the line command table"},
	{"sgboh", "setup unit star:", "9.3", "SK* that may attack"},
	{"sgboh", "setup unit deep:", "9.62", "double-depth phalanxes"},
	{"sgboh", "ruling hits:", "8.15", "more missile hits than the unit's TQ eliminate it"},
}

// TestHelpSections pins every rule section the help of every rule
// system's commands cites to the list above, which was checked against
// the rule texts: a section added, changed or dropped fails here until
// it is checked and listed. /help COMMAND shows the section of its Rules
// line, whole.
func TestHelpSections(t *testing.T) {
	r := NewRouter(Config{Rulesets: rulesets()})
	var want, got []string
	for _, s := range helpSections {
		want = append(want, fmt.Sprintf("%s /%s: %s", s[0], s[1], s[2]))
	}
	for _, rs := range r.cfg.Rulesets {
		for _, spec := range r.bookCommands(rs) {
			text, rule := helpRule(spec.Help)
			if rule != "" {
				got = append(got, fmt.Sprintf("%s /%s: %s", rs.ID(), spec.Name, rule))
				line := "Rules: section " + rule + "."
				if rule[0] < '0' || rule[0] > '9' {
					line = "Rules: " + rule + "."
				}
				if out := explain(spec, ""); !strings.HasSuffix(out, "\n"+line) {
					t.Errorf("%s /help %s does not end with %q:\n%s", rs.ID(), spec.Name, line, out)
				}
			}
			for _, m := range sectionCited.FindAllStringSubmatch(text, -1) {
				got = append(got, fmt.Sprintf("%s /%s (in its help): %s", rs.ID(), spec.Name, m[1]))
			}
			for _, o := range spec.Options {
				for _, m := range sectionCited.FindAllStringSubmatch(o.Help, -1) {
					got = append(got, fmt.Sprintf("%s /%s %s:: %s", rs.ID(), spec.Name, o.Name, m[1]))
				}
			}
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("help cites a section not checked against the rules: %s", g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("help no longer cites %s", w)
		}
	}
}
