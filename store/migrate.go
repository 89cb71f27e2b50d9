package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"time"
)

// migrationFiles holds the schema, one numbered file per step.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// A migration is one numbered schema step.
type migration struct {
	version int    // from the file name's number: 0001_... is 1
	name    string // the file name
	sql     string
}

var migrationName = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// loadMigrations reads the .sql files in dir of fsys. Their names must be
// NNNN_words.sql, numbered 1, 2, 3 ... without gaps.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var migs []migration
	for _, e := range ents { // ReadDir sorts by name
		if e.IsDir() || path.Ext(e.Name()) != ".sql" {
			continue
		}
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("migration %s: name is not NNNN_words.sql", e.Name())
		}
		v, _ := strconv.Atoi(m[1])
		if v != len(migs)+1 {
			return nil, fmt.Errorf("migration %s: number %d, want %d", e.Name(), v, len(migs)+1)
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", e.Name(), err)
		}
		migs = append(migs, migration{version: v, name: e.Name(), sql: string(b)})
	}
	if len(migs) == 0 {
		return nil, errors.New("no migrations")
	}
	return migs, nil
}

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	applied_at TEXT NOT NULL
) STRICT`

// migrate applies the migrations db lacks, each in its own IMMEDIATE
// transaction that first checks, under the write lock, that no other process
// has applied it meanwhile. It fails if the database records a migration this
// program does not know, or knows by another name.
func migrate(ctx context.Context, db *sql.DB, migs []migration) error {
	if _, err := db.ExecContext(ctx, createMigrationsTable); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	applied, err := appliedMigrations(ctx, db)
	if err != nil {
		return err
	}
	for v, name := range applied {
		if v < 1 || v > len(migs) {
			return fmt.Errorf("database has migration %d (%s); this program knows %d", v, name, len(migs))
		}
	}
	for _, m := range migs {
		if name, ok := applied[m.version]; ok {
			if name != m.name {
				return fmt.Errorf("migration %d was applied as %s, this program has %s", m.version, name, m.name)
			}
			continue
		}
		if err := applyMigration(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}

func appliedMigrations(ctx context.Context, db *sql.DB) (map[int]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT version, name FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("read schema_migrations: %w", err)
	}
	defer rows.Close()
	applied := make(map[int]string)
	for rows.Next() {
		var v int
		var name string
		if err := rows.Scan(&v, &name); err != nil {
			return nil, fmt.Errorf("read schema_migrations: %w", err)
		}
		applied[v] = name
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read schema_migrations: %w", err)
	}
	return applied, nil
}

// applyMigration applies m in one transaction unless it is already recorded.
func applyMigration(ctx context.Context, db *sql.DB, m migration) (err error) {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: holds the write lock
	if err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	var name string
	switch err := tx.QueryRowContext(ctx, `SELECT name FROM schema_migrations WHERE version = ?`, m.version).Scan(&name); {
	case err == nil: // another process applied it first
		if name != m.name {
			return fmt.Errorf("migration %d was applied as %s, this program has %s", m.version, name, m.name)
		}
		return tx.Commit()
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, formatTime(time.Now())); err != nil {
		return fmt.Errorf("migration %s: record: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return nil
}
