package bot

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Publishing: a saga's Herald makes its pages public (standings, each
// Hero's ledger, its books step by step), or a book's game master makes
// one book's; either may take them down again. Until then nothing of a
// server is on the web. The pages live under an address no one can guess
// (a random token), served by the web server of package bot/web.

// Publications is what the store keeps of published games.
type Publications interface {
	Publish(ctx context.Context, guild string, game store.GameID, token string, now time.Time) (store.Publication, error)
	Withdraw(ctx context.Context, game store.GameID) (bool, error)
	Published(ctx context.Context, token string) (store.Publication, error)
	PublicationOf(ctx context.Context, game store.GameID) (store.Publication, error)
}

var _ Publications = (*store.Store)(nil)

var (
	bookPublishSpec = engine.CommandSpec{Name: "book publish", Flags: engine.MasterOnly,
		Help: "Put this channel's book on the web, step by step with its pictures, at an address to share; /book withdraw takes it down. Game master only."}
	bookWithdrawSpec = engine.CommandSpec{Name: "book withdraw", Flags: engine.MasterOnly,
		Help: "Take this channel's book off the web. Game master only."}
	sagaPublishSpec = engine.CommandSpec{Name: "saga publish", Flags: engine.MasterOnly,
		Help: "Put the saga on the web: its standings, each Hero's ledger and its books step by step, at an address to share (5.5). Herald only."}
	sagaWithdrawSpec = engine.CommandSpec{Name: "saga withdraw", Flags: engine.MasterOnly,
		Help: "Take the saga's pages off the web. Herald only."}
)

// newToken makes the unguessable part of a publication's address: 128
// random bits.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// PagesPath is the path of a publication's pages on the web server.
func PagesPath(token string) string { return "/p/" + token + "/" }

func (r *Router) publications() (Publications, error) {
	ps, ok := r.cfg.Store.(Publications)
	if !ok {
		return nil, engine.Refuse("", "This table keeps no web pages.")
	}
	if r.cfg.ReadOnly {
		return nil, errReadOnly
	}
	return ps, nil
}

// pagesAt says where a publication's pages are.
func (r *Router) pagesAt(p store.Publication) string {
	if r.cfg.WebURL == "" {
		return fmt.Sprintf("%s on this bot's web address", PagesPath(p.Token))
	}
	return strings.TrimRight(r.cfg.WebURL, "/") + PagesPath(p.Token)
}

// publishBook answers /book publish and /book withdraw.
func (r *Router) publishBook(withdraw bool) func(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	return func(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
		ps, err := r.publications()
		if err != nil {
			return nil, err
		}
		info, err := r.cfg.Store.LatestGame(ctx, key.guild, key.channel)
		if errors.Is(err, store.ErrNotFound) {
			return nil, engine.Refuse("", "No book has been played in this channel yet.")
		}
		if err != nil {
			return nil, err
		}
		g, err := r.load(ctx, info)
		if err != nil {
			return nil, err
		}
		if err := r.permit(g, req); err != nil {
			return nil, err
		}
		return r.publish(ctx, ps, key.guild, info.ID, withdraw, req, "this book", "The game master")
	}
}

// publishSaga answers /saga publish and /saga withdraw, for the server's
// newest saga.
func (r *Router) publishSaga(withdraw bool) func(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	return func(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
		ps, err := r.publications()
		if err != nil {
			return nil, err
		}
		if len(r.chronicles) == 0 {
			return nil, engine.Refuse("", "These rules keep no saga.")
		}
		ch := r.chronicles[0]
		info, err := r.cfg.Store.LatestGame(ctx, key.guild, campaignKey(ch))
		if errors.Is(err, store.ErrNotFound) {
			return nil, engine.Refuse("", "No saga has been started on this server; the Herald starts one with /%s.", opening(ch).Name)
		}
		if err != nil {
			return nil, err
		}
		g, err := r.load(ctx, info)
		if err != nil {
			return nil, err
		}
		c := req.Command
		c.Master = c.Master || r.serverMaster(req)
		if !g.IsMaster(c) {
			return nil, engine.Refuse("5.1", "Only the Herald publishes the saga or takes it down.")
		}
		return r.publish(ctx, ps, key.guild, info.ID, withdraw, req, "the saga", "The Herald")
	}
}

func (r *Router) publish(ctx context.Context, ps Publications, guild string, id store.GameID, withdraw bool, req Request, what, who string) ([]Reply, error) {
	if withdraw {
		was, err := ps.Withdraw(ctx, id)
		if err != nil {
			return nil, err
		}
		if !was {
			return nil, engine.Refuse("", "The pages of %s are not on the web.", what)
		}
		return []Reply{{User: req.User, Text: fmt.Sprintf("%s takes the pages of %s off the web; their address leads nowhere now.", who, what)}}, nil
	}
	token := newToken
	if r.cfg.Token != nil {
		token = r.cfg.Token
	}
	p, err := ps.Publish(ctx, guild, id, token(), r.cfg.Now())
	if err != nil {
		return nil, err
	}
	return []Reply{{User: req.User, Text: fmt.Sprintf("%s puts the pages of %s on the web: %s", who, what, r.pagesAt(p))}}, nil
}
