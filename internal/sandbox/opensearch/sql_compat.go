package opensearch

import (
	"io"
	"sync"
)

// sqlCache is what cluster.go (Cluster.sql), demo.go (closing c.sql.db, clearing c.sql.tables),
// export.go and indices.go (c.sql.forget) still refer to from when SQL ran on SQLite tables
// loaded from the indices. SQL now reads the indices through the search engine, so there is
// nothing to cache or forget; the type only keeps those files compiling until their owners
// drop the references.
type sqlCache struct {
	mu     sync.Mutex
	db     io.Closer
	tables map[string]struct{}
}

// forget has nothing to drop: no copy of an index is kept for SQL.
func (s *sqlCache) forget(string) {}
