package connect

import (
	"os/exec"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// client is how one service type is opened.
type client struct {
	names    []string // candidates in order of preference; "clickhouse client" runs clickhouse with "client" first
	packages []string // the Debian packages that provide them
	oneShot  bool     // prints and exits, rather than an interactive prompt
	build    func(s *Session, d *details) error
}

var clients = map[string]client{
	models.TypePG:         {names: []string{"psql"}, packages: []string{"postgresql-client"}, build: buildPG},
	models.TypeMySQL:      {names: []string{"mysql", "mariadb"}, packages: []string{"default-mysql-client", "mariadb-client"}, build: buildMySQL},
	models.TypeCaching:    {names: []string{"valkey-cli", "redis-cli"}, packages: []string{"valkey-tools", "redis-tools"}, build: buildCaching},
	models.TypeClickHouse: {names: []string{"clickhouse client", "clickhouse-client"}, packages: []string{"clickhouse-client"}, build: buildClickHouse},
	models.TypeKafka:      {names: []string{"kcat", "kafkacat"}, packages: []string{"kcat"}, oneShot: true, build: buildKafka},
}

// program is a client found on PATH.
type program struct {
	name string   // as a person types it: "psql", "clickhouse client"
	path string   // the executable
	pre  []string // arguments before ours ("client")
}

// find looks the candidates up on PATH, in order.
func (c client) find() (program, error) {
	for _, n := range c.names {
		f := strings.Fields(n)
		if path, err := exec.LookPath(f[0]); err == nil {
			return program{name: n, path: path, pre: f[1:]}, nil
		}
	}
	bins := make([]string, len(c.names))
	for i, n := range c.names {
		bins[i] = strings.Fields(n)[0]
	}
	return program{}, &MissingClientError{Clients: bins, Packages: c.packages}
}
