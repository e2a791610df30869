// Command ferretdb runs FerretDB 1.x embedded, so local runs and tests get a
// MongoDB-wire server without Docker. The upstream cmd/ferretdb binary panics
// when installed with `go install` (it expects a version file only present in
// its own build); embedding the library from our own main module avoids that.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dataDir := flag.String("data-dir", ".hangar/ferretdb", "directory of the SQLite backend (created if missing)")
	postgresURL := flag.String("postgresql-url", "", "use the PostgreSQL backend at this URL instead of SQLite (or FERRETDB_POSTGRESQL_URL)")
	flag.Parse()
	// From the environment, the URL's password stays out of every user's `ps`.
	if *postgresURL == "" {
		*postgresURL = os.Getenv("FERRETDB_POSTGRESQL_URL")
	}

	cfg := ferretdb.Config{Listener: ferretdb.ListenerConfig{TCP: *listen}}
	if *postgresURL != "" {
		cfg.Handler = "postgresql"
		cfg.PostgreSQLURL = *postgresURL
	} else {
		abs, err := filepath.Abs(*dataDir)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			log.Fatal(err)
		}
		cfg.Handler = "sqlite"
		cfg.SQLiteURL = "file:" + abs + "/"
	}

	f, err := ferretdb.New(&cfg)
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(os.Stderr, "ferretdb listening on %s\n", *listen)
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
