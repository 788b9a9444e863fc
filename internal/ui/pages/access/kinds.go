package access

import "github.com/svcui/svcui/internal/ui/common"

// The kinds of request this package sends (common.Kind: values, not names).
var (
	kindAclUsers     = common.NewKind("acl-users")
	kindConnect      = common.NewKind("connect")
	kindTopicService = common.NewKind("topic-service")
)
