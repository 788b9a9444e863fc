package services

import "github.com/svcui/svcui/internal/ui/common"

// The kinds of request this package sends (common.Kind: values, not names).
var (
	kindPrepBulk   = common.NewKind("prep-bulk")
	kindPrepCreate = common.NewKind("prep-create")
	kindPrepEdit   = common.NewKind("prep-edit")
	kindPrepPlans  = common.NewKind("prep-plans")
)
