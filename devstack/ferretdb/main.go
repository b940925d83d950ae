// Command ferretdb runs FerretDB with its SQLite handler as the offline MongoDB-protocol store
// for development and tests. It exists because `go install` of the upstream command panics on a
// missing version file; embedding the library avoids that.
//
// With -postgresql-url it runs the PostgreSQL handler instead (`npm run stack:production`): then
// clients authenticate (PLAIN) and FerretDB opens PostgreSQL with their user name and password,
// so PostgreSQL's password authentication is the store's.
//
// Usage: ferretdb -listen 127.0.0.1:27017 -data /path/to/dir
//
//	ferretdb -listen 127.0.0.1:27017 -postgresql-url postgres://127.0.0.1:5432/ferretdb
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dataDir := flag.String("data", ".data/ferretdb", "directory for the SQLite files")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	postgresqlURL := flag.String("postgresql-url", "", "use the PostgreSQL handler with this database (no user: clients' credentials are used) instead of SQLite")
	pprofAddr := flag.String("pprof", "", "serve Go's pprof profiles on this address (e.g. 127.0.0.1:6060); off when empty")
	flag.Parse()

	if *pprofAddr != "" {
		go func() { fmt.Fprintln(os.Stderr, "ferretdb: pprof:", http.ListenAndServe(*pprofAddr, nil)) }()
	}

	if err := run(*listen, *dataDir, *postgresqlURL, *logLevel); err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(1)
	}
}

func run(listen, dataDir, postgresqlURL, logLevel string) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	config := &ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: listen},
		Logger:        logger,
		Handler:       "postgresql",
		PostgreSQLURL: postgresqlURL,
	}
	where := postgresqlURL
	if postgresqlURL == "" {
		abs, err := filepath.Abs(dataDir)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return err
		}
		config.Handler = "sqlite"
		config.SQLiteURL = "file:" + abs + "/"
		where = abs
	}
	f, err := ferretdb.New(config)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(os.Stderr, "ferretdb: listening on %s, data in %s\n", listen, where)
	return f.Run(ctx)
}
