package bot

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Local is the local table: the router fed from lines of text, one command
// a line, as players try the bot without Discord and as scenarios and
// tests play whole games.
type Local struct {
	Router  *Router
	Guild   string
	Channel string
	// User acts for lines that name no player until a line does.
	User engine.PlayerID
	// JSON writes one JSON object per reply instead of plain text.
	JSON bool
	// Echo writes each command line before its replies, so that a
	// transcript reads as a conversation.
	Echo bool
	// Prompt writes a prompt before each line, for a person at a terminal.
	Prompt bool
	// Boards, when set, is a folder where each board picture is written,
	// numbered on from the pictures an earlier run left there, so that none
	// is overwritten.
	Boards string

	boards      int    // the number of the last picture written to Boards
	counted     bool   // whether boards has been set past the pictures already there
	first, last string // the first and last pictures written
}

// Pictures returns the paths of the first and the last board picture this
// table wrote to Boards; both are empty when it wrote none.
func (l *Local) Pictures() (first, last string) { return l.first, l.last }

// jsonReply is a reply as --json writes it.
type jsonReply struct {
	User      engine.PlayerID `json:"user"`
	Ephemeral bool            `json:"ephemeral"`
	Channel   string          `json:"channel,omitempty"`
	Text      string          `json:"text"`
	Image     string          `json:"image"`
}

// Run reads lines from in until it ends, answering each on out.
func (l *Local) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	rd := bufio.NewReaderSize(in, 64*1024)
	user := l.User
	for {
		if l.Prompt {
			fmt.Fprintf(w, "%s> ", user)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		text, long, err := readLine(rd)
		if err == io.EOF && text == "" && !long {
			break
		}
		if err != nil && err != io.EOF {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if long {
			if err := l.write(w, Reply{User: user, Ephemeral: true,
				Text: fmt.Sprintf("That line is longer than %d characters; nothing was done.", maxLine)}); err != nil {
				return err
			}
			continue
		}
		line, err := engine.ParseLine(text)
		if err == nil && line.Empty {
			if l.Echo && !l.JSON && line.Comment != "" {
				fmt.Fprintln(w, line.Comment)
			}
			continue
		}
		if line.User != "" {
			user = line.User
		}
		if l.Echo && !l.JSON {
			fmt.Fprintf(w, "» %s\n", strings.TrimSpace(text))
		}
		var replies []Reply
		if err != nil {
			replies = []Reply{{User: user, Ephemeral: true, Text: "That line does not read: " + err.Error() + "."}}
		} else {
			replies = l.Router.Handle(ctx, Request{Guild: l.Guild, Channel: l.Channel, User: user, Command: line.Command})
		}
		for _, rep := range replies {
			if err := l.write(w, rep); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}

// maxLine is the longest line the local table reads; no command needs
// more.
const maxLine = 16 * 1024

// readLine reads one line without its end. A line longer than maxLine is
// read to its end and dropped: long is true and text empty. err is io.EOF
// at the end of the input (with the last line, if it had no end).
func readLine(rd *bufio.Reader) (text string, long bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := rd.ReadLine()
		if !long {
			b = append(b, chunk...)
			if len(b) > maxLine {
				long, b = true, nil
			}
		}
		if err != nil {
			return string(b), long, err
		}
		if !isPrefix {
			return string(b), long, nil
		}
	}
}

func (l *Local) write(w io.Writer, rep Reply) error {
	image := ""
	if rep.Image != nil && l.Boards != "" {
		var err error
		if image, err = l.writeBoard(rep.Image); err != nil {
			return err
		}
	}
	if l.JSON {
		b, err := json.Marshal(jsonReply{User: rep.User, Ephemeral: rep.Ephemeral, Channel: rep.Channel, Text: rep.Text, Image: image})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	text := rep.Text
	if rep.Channel != "" {
		text = fmt.Sprintf("[in #%s] %s", rep.Channel, strings.ReplaceAll(text, "\n", "\n    "))
	}
	if rep.Ephemeral {
		text = fmt.Sprintf("(to %s only) %s", rep.User, strings.ReplaceAll(text, "\n", "\n    "))
	}
	if image != "" {
		text += "\n[board: " + image + "]"
	}
	_, err := fmt.Fprintln(w, text)
	return err
}

// writeBoard writes one board picture to the Boards folder under the next
// number that no file there has, and returns its path. A file made by
// someone else meanwhile is stepped over, never written on.
func (l *Local) writeBoard(img []byte) (string, error) {
	if !l.counted {
		l.counted = true
		entries, _ := os.ReadDir(l.Boards)
		for _, e := range entries {
			var n int
			if _, err := fmt.Sscanf(e.Name(), "board-%d.", &n); err == nil && n > l.boards {
				l.boards = n
			}
		}
	}
	ext, _ := ImageKind(img)
	for {
		l.boards++
		path := filepath.Join(l.Boards, fmt.Sprintf("board-%04d.%s", l.boards, ext))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("write board picture: %w", err)
		}
		_, err = f.Write(img)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("write board picture: %w", err)
		}
		if l.first == "" {
			l.first = path
		}
		l.last = path
		return path, nil
	}
}
