package engine

import (
	"fmt"
	"strings"
)

// Line is one line typed at the local table: an optional acting player
// and a slash command or table directive. Blank lines and comments ("# "
// followed by anything) parse to a Line with no command.
type Line struct {
	User    PlayerID // "" when the line names no player
	Command Command
	Empty   bool
	// Comment is the whole line when it is a comment, which transcripts
	// keep so that a golden reads alone.
	Comment string
}

// ParseLine reads a line written the way Discord shows a used slash
// command, with the acting player first:
//
//	@alice /clan raise name:Myrmidons hero:"Great Ajax" side:protagonist
//	#stack combat KS 7H
//
// Option values with spaces are quoted. A directive's words after its
// name are its arguments.
func ParseLine(s string) (Line, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Line{Empty: true}, nil
	}
	if s == "#" || strings.HasPrefix(s, "# ") || strings.HasPrefix(s, "#\t") {
		return Line{Empty: true, Comment: s}, nil
	}
	toks, err := tokenize(s)
	if err != nil {
		return Line{}, err
	}
	var l Line
	if t := toks[0]; strings.HasPrefix(t.text, "@") && !t.quoted {
		name := strings.TrimPrefix(t.text, "@")
		if name == "" {
			return Line{}, fmt.Errorf("a player's name must follow @")
		}
		l.User = PlayerID(name)
		toks = toks[1:]
		if len(toks) == 0 {
			return Line{}, fmt.Errorf("@%s says nothing: a command must follow, like /status", name)
		}
	}
	first := toks[0]
	switch {
	case first.quoted:
		return Line{}, fmt.Errorf("a line must start with a /command or a #directive")
	case strings.HasPrefix(first.text, "#") && len(first.text) > 1:
		if !isWord(first.text[1:]) {
			return Line{}, fmt.Errorf("%q is not a directive: a directive is # and a word, like #seed", first.text)
		}
		l.Command = Command{Directive: true, Name: strings.ToLower(first.text[1:])}
		for _, t := range toks[1:] {
			l.Command.Args = append(l.Command.Args, t.text)
		}
		return l, nil
	case strings.HasPrefix(first.text, "/") && isWord(first.text[1:]):
	default:
		return Line{}, fmt.Errorf("%q is not a command: commands start with /, like /help", first.text)
	}
	name := []string{strings.ToLower(first.text[1:])}
	rest := toks[1:]
	for len(rest) > 0 && !rest[0].quoted && !strings.Contains(rest[0].text, ":") {
		if !isWord(rest[0].text) {
			return Line{}, fmt.Errorf("%q has no option name: options are written name:value, like to:%s; /help %s lists the options", rest[0].text, rest[0].text, name[0])
		}
		name = append(name, strings.ToLower(rest[0].text))
		rest = rest[1:]
	}
	l.Command.Name = strings.Join(name, " ")
	for _, t := range rest {
		key, val, ok := strings.Cut(t.text, ":")
		if !ok || t.quoted || !isWord(key) {
			return Line{}, fmt.Errorf("%q is not an option: write name:value, quoting values with spaces; /help %s lists the options", t.text, name[0])
		}
		key = strings.ToLower(key)
		if l.Command.Options == nil {
			l.Command.Options = map[string]string{}
		}
		if _, dup := l.Command.Options[key]; dup {
			return Line{}, fmt.Errorf("the option %s: is given twice", key)
		}
		l.Command.Options[key] = val
	}
	return l, nil
}

// isWord reports whether s can be (part of) a command's name: letters,
// digits and dashes.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

type token struct {
	text   string
	quoted bool // the whole token was one quoted string
}

// tokenize splits s at spaces outside double quotes. Inside quotes, \" and
// \\ stand for a quote and a backslash.
func tokenize(s string) ([]token, error) {
	var toks []token
	var cur strings.Builder
	var t token
	inTok, inQuote := false, false
	flush := func() {
		if inTok {
			t.text = cur.String()
			toks = append(toks, t)
		}
		cur.Reset()
		t = token{}
		inTok = false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case inQuote && ch == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			cur.WriteByte(s[i+1])
			i++
		case ch == '"':
			if !inQuote {
				if !inTok {
					t.quoted = true
				}
			} else if i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t' {
				t.quoted = false
			}
			inTok = true
			inQuote = !inQuote
		case !inQuote && (ch == ' ' || ch == '\t'):
			flush()
		default:
			if t.quoted && !inQuote {
				t.quoted = false
			}
			cur.WriteByte(ch)
			inTok = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("a quote is left open: close it with \"")
	}
	flush()
	return toks, nil
}
