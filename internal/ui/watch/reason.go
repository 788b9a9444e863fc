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
		return ReasonPowerOff
	}
	return ""
}

// ReasonPowerOff is the reason of a power off, whose watch ends at POWEROFF.
const ReasonPowerOff = "power off"

// targetOf is the state a change leads to: POWEROFF for a power off, RUNNING for a
// creation, a plan change, a migration or a power on; "" for a watch that is not a
// change's (marked services watched with w), which keeps watching for a transition.
func targetOf(reason string) models.ServiceState {
	switch reason {
	case ReasonPowerOff:
		return models.StatePowerOff
	case "creation", "cloud migration", "plan change", "power on":
		return models.StateRunning
	}
	return ""
}
