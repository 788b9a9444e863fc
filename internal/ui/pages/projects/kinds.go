package projects

import "github.com/svcui/svcui/internal/ui/common"

// The kinds of request this package sends (common.Kind: values, not names).
var (
	kindPrepCreate = common.NewKind("prep-create")
	kindPrepEdit   = common.NewKind("prep-edit")
)
