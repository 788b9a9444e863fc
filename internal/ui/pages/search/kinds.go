package search

import "github.com/svcui/svcui/internal/ui/common"

// The kinds of request this package sends (common.Kind: values, not names).
var (
	kindAround        = common.NewKind("around")
	kindBulk          = common.NewKind("bulk")
	kindColumns       = common.NewKind("columns")
	kindExternal      = common.NewKind("external")
	kindExternalRead  = common.NewKind("external-read")
	kindOverview      = common.NewKind("overview")
	kindReview        = common.NewKind("review")
	kindRun           = common.NewKind("run")
	kindSaveColumns   = common.NewKind("save-columns")
	kindSaveEditor    = common.NewKind("save-editor")
	kindSaveSearch    = common.NewKind("save-search")
	kindSaved         = common.NewKind("saved")
	kindSaveTimefield = common.NewKind("save-timefield")
	kindStats         = common.NewKind("stats")
	kindTail          = common.NewKind("tail")
	kindTarget        = common.NewKind("target")
	kindUsers         = common.NewKind("users")
)
