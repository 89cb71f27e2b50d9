package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/rhapsode/rhapsode/bot"
)

// export serves a published book's log as `rhapsode export` writes it,
// as a file to download: every event with its cards and dice, secrets
// still sealed kept face down (bot.Export does that), the players named
// by their aliases, and neither the server's nor the channel's ID.
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	p, pub, info, prefix, ok := s.bookOf(w, r)
	if !ok {
		return
	}
	if s.notModified(w, r, version(p.Token, pub.ID, pub.Head, info.ID, info.Head, "export")) {
		return
	}
	f, err := s.foldOf(r.Context(), bot.PagesPath(p.Token)+prefix, pub, info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := bot.Export(r.Context(), s.cfg.Store, s.cfg.Rulesets, info.Guild, info.Channel, bot.ExportOptions{Game: info.ID}, &buf); err != nil {
		s.fail(w, r, err)
		return
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		s.fail(w, r, fmt.Errorf("web: read the export: %w", err))
		return
	}
	if g, ok := doc["game"].(map[string]any); ok {
		delete(g, "guild")
		delete(g, "channel")
	}
	names := aliases{}
	for k, a := range f.names {
		names[k] = a
	}
	doc = anonymous(doc, "", names).(map[string]any)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	name := fmt.Sprintf("rhapsode-%s-%d.json", info.Ruleset, info.ID)
	if f.book.Number > 0 {
		name = fmt.Sprintf("rhapsode-saga-book-%d.json", f.book.Number)
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	s.send(w, r, "application/json", append(out, '\n'))
}

// anonymous returns v (decoded JSON) with every player's account named
// by its alias; key is the key v was found under. A seed is a number
// written as a string, which may be as long as an account's ID, and is
// left as it is.
func anonymous(v any, key string, names aliases) any {
	switch x := v.(type) {
	case string:
		if key == "seed" {
			return x
		}
		return names.text(x)
	case map[string]any:
		for k, e := range x {
			x[k] = anonymous(e, k, names)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = anonymous(e, key, names)
		}
		return x
	}
	return v
}
