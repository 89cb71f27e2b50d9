package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"

	"github.com/rhapsode/rhapsode/bot/guard"
	"github.com/rhapsode/rhapsode/bot/web"
	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/render"
)

// serveWeb serves the published pages (package bot/web) on addr until ctx
// ends; "" serves nothing. It returns once the server listens.
func serveWeb(ctx context.Context, addr string, st database, logger *slog.Logger) error {
	if addr == "" {
		return nil
	}
	ws, ok := st.(web.Store)
	if !ok {
		return fmt.Errorf("--web: this database keeps no publications")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--web: %w", err)
	}
	pages := web.New(web.Config{Store: ws, Rulesets: systems.All(), Logger: logger,
		Renderer: render.New(render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth})})
	srv := guard.Server(pages, guard.Defaults)
	go guard.Serve(srv, ln, guard.Defaults.MaxConns)
	go func() {
		<-ctx.Done()
		stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownWithin)
		defer cancel()
		srv.Shutdown(stop)
	}()
	logger.Info("serving published pages", "addr", ln.Addr().String())
	return nil
}
