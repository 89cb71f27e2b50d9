package bot

import (
	"regexp"
	"sync"
	"unicode/utf8"

	"github.com/rhapsode/rhapsode/engine"
)

// A transport such as Discord knows its players by account IDs, which is
// what the rules record and what the text of a step names (Discord shows
// a mention as the name). A board picture cannot: its header and legend
// would show the number. The router keeps each player's display name as
// the transport last gave it, and draws the board with names for the IDs
// it knows.

// accountID is a Discord account ID in a picture's text.
var accountID = regexp.MustCompile(`\b\d{17,20}\b`)

// maxDisplayName bounds a display name in a picture.
const maxDisplayName = 32

// names are the players' display names.
type names struct{ m sync.Map } // engine.PlayerID → string

// note keeps player's display name.
func (n *names) note(player engine.PlayerID, name string) {
	name = cleanName(name)
	if name == "" || player == "" {
		return
	}
	if utf8.RuneCountInString(name) > maxDisplayName {
		name = string([]rune(name)[:maxDisplayName-1]) + "…"
	}
	n.m.Store(player, name)
}

// text writes s with the IDs of players it knows as their names.
func (n *names) text(s string) string {
	return accountID.ReplaceAllStringFunc(s, func(id string) string {
		if name, ok := n.m.Load(engine.PlayerID(id)); ok {
			return name.(string)
		}
		return id
	})
}

// view names the players of a board's view: its header and legend.
func (n *names) view(v *engine.View) {
	v.Title, v.Caption = n.text(v.Title), n.text(v.Caption)
	for i := range v.Groups {
		v.Groups[i].Player = n.text(v.Groups[i].Player)
	}
}
