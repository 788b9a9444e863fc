package billing

import "github.com/svcui/svcui/internal/ui/common"

// The kinds of request this package sends (common.Kind: values, not names).
var (
	kindCheck      = common.NewKind("check")
	kindDownload   = common.NewKind("download")
	kindFolder     = common.NewKind("folder")
	kindPrepAssign = common.NewKind("prep-assign")
)
