package watch

import "github.com/svcui/svcui/internal/models"

// Reason names an update that moves the service (it is watched until it settles), or is
// "" for one that does not.
func Reason(req models.UpdateServiceRequest) string {
	switch {
	case req.Cloud != nil:
		return "cloud migration"
	case req.Plan != nil:
		return "plan change"
	case req.Powered != nil && *req.Powered:
		return "power on"
	case req.Powered != nil:
		return "power off"
	}
	return ""
}
