package common

import (
	"context"
	"testing"

	"github.com/svcui/svcui/internal/api"
)

// Views mark their work's class without importing the client: the client reads the
// class these put on the context.
func TestBackgroundAndBulkMarkTheClass(t *testing.T) {
	ctx := context.Background()
	if got := api.ClassOf(ctx); got != api.Foreground {
		t.Errorf("unmarked work is %v, want foreground", got)
	}
	if got := api.ClassOf(Background(ctx)); got != api.Background {
		t.Errorf("Background marks %v", got)
	}
	if got := api.ClassOf(Bulk(ctx)); got != api.Bulk {
		t.Errorf("Bulk marks %v", got)
	}
}
