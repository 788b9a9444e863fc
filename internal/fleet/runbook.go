package fleet

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// ServiceHas reports that a service already is as the update would make it: what a
// read-back and a runbook's check look for. RunbookCheck is the same test in jq.
func ServiceHas(s models.Service, u models.UpdateServiceRequest) bool {
	switch {
	case u.Plan != nil && s.Plan != *u.Plan,
		u.Cloud != nil && s.CloudName != *u.Cloud,
		u.DiskSpaceMB != nil && s.DiskSpaceMB < *u.DiskSpaceMB,
		u.Powered != nil && *u.Powered == (s.State == models.StatePowerOff),
		u.TerminationProtection != nil && s.TerminationProtection != *u.TerminationProtection:
		return false
	}
	if m := u.Maintenance; m != nil {
		if s.Maintenance == nil || s.Maintenance.DOW != m.DOW || models.NormalizeMaintenanceTime(s.Maintenance.Time) != models.NormalizeMaintenanceTime(m.Time) {
			return false
		}
	}
	if want, ok := ipFilterOf(u); ok {
		have := s.UserConfig.IPFilter()
		if len(have) != len(want) {
			return false
		}
		for i := range want {
			if have[i] != want[i] {
				return false
			}
		}
	}
	return true
}

func ipFilterOf(u models.UpdateServiceRequest) ([]string, bool) {
	if u.UserConfig == nil {
		return nil, false
	}
	if _, ok := u.UserConfig[models.UCIPFilter]; !ok {
		return nil, false
	}
	return u.UserConfig.IPFilter(), true
}

// RunbookCheck is ServiceHas as a jq test on GET .../service/NAME's answer.
func RunbookCheck(u models.UpdateServiceRequest) string {
	parts := []string{}
	q := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	if u.Plan != nil {
		parts = append(parts, ".service.plan == "+q(*u.Plan))
	}
	if u.Cloud != nil {
		parts = append(parts, ".service.cloud_name == "+q(*u.Cloud))
	}
	if u.DiskSpaceMB != nil {
		parts = append(parts, fmt.Sprintf(".service.disk_space_mb >= %d", *u.DiskSpaceMB))
	}
	if u.Powered != nil {
		op := "!="
		if !*u.Powered {
			op = "=="
		}
		parts = append(parts, ".service.state "+op+` "POWEROFF"`)
	}
	if u.TerminationProtection != nil {
		parts = append(parts, fmt.Sprintf(".service.termination_protection == %t", *u.TerminationProtection))
	}
	if m := u.Maintenance; m != nil {
		parts = append(parts, ".service.maintenance.dow == "+q(m.DOW),
			`((.service.maintenance.time // "") | if length == 5 then . + ":00" else . end) == `+q(models.NormalizeMaintenanceTime(m.Time)))
	}
	if want, ok := ipFilterOf(u); ok {
		b, _ := json.Marshal(want)
		if want == nil {
			b = []byte("[]")
		}
		parts = append(parts, `[.service.user_config.ip_filter[]? | if type == "object" then .network else . end] == `+string(b))
	}
	if len(parts) == 0 {
		return "true"
	}
	return strings.Join(parts, " and ")
}

// shq quotes s for a POSIX shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func servicePath(project, service string) string {
	return "/v1/project/" + url.PathEscape(project) + "/service/" + url.PathEscape(service)
}

// Runbook is the plan as a shell script of curl calls. It reads the token from
// $SVCUI_TOKEN (never written into it) and the address from $SVCUI_API (default api),
// and checks each resource before changing it, so running it again changes nothing that
// is already so. Rows skipped in the plan are left out, named in a comment.
func Runbook(p Plan, api string) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("#!/bin/sh\n")
	w("# svcui runbook: %s\n", oneLine(p.Title))
	w("# %d %s, planned %s. Re-runnable: each change is sent only when the resource\n", len(p.Rows), p.Noun+"s", p.Created.UTC().Format("2006-01-02 15:04 UTC"))
	w("# is not already so. Needs curl and jq; reads the API token from $SVCUI_TOKEN.\n")
	w("set -eu\n")
	w(": \"${SVCUI_TOKEN:?set SVCUI_TOKEN to your API token}\"\n")
	w("API=\"${SVCUI_API:-%s}\"\n", strings.ReplaceAll(strings.TrimRight(api, "/"), `"`, ""))
	w("command -v curl >/dev/null || { echo 'this runbook needs curl' >&2; exit 1; }\n")
	w("command -v jq >/dev/null || { echo 'this runbook needs jq' >&2; exit 1; }\n")
	w("DONE_DIR=\"${SVCUI_RUNBOOK_STATE:-.svcui-runbook-%s}\"\n", p.ID)
	w("auth() { printf 'Authorization: svcv1 %%s' \"$SVCUI_TOKEN\"; }\n")
	w("# Reads are retried on transient failures; changes are never retried.\n")
	w("get() { curl -fsS --retry 3 --retry-delay 1 -H \"$(auth)\" \"$API$1\"; }\n")
	w("send() { curl -fsS -X \"$1\" -H \"$(auth)\" -H 'Content-Type: application/json' --data \"$3\" \"$API$2\" >/dev/null; }\n")
	w("# change PATH CHECK BODY NAME: PUT BODY to PATH unless CHECK (jq) holds for GET PATH.\n")
	w("change() {\n")
	w("  now=$(get \"$1\") || { echo \"could not read $4: stopped; run again\" >&2; exit 1; }\n")
	w("  if printf '%%s' \"$now\" | jq -e \"$2\" >/dev/null; then echo \"already so  $4\"; return; fi\n")
	w("  send PUT \"$1\" \"$3\" || { echo \"not changed (or answer lost) $4: stopped; run again to check\" >&2; exit 1; }\n")
	w("  echo \"changed     $4\"\n")
	w("}\n")
	w("# gone PATH NAME: DELETE PATH unless it is gone already.\n")
	w("gone() {\n")
	w("  code=$(curl -sS --retry 3 --retry-delay 1 -o /dev/null -w '%%{http_code}' -H \"$(auth)\" \"$API$1\")\n")
	w("  if [ \"$code\" = 404 ]; then echo \"already gone $2\"; return; fi\n")
	w("  curl -fsS -X DELETE -H \"$(auth)\" \"$API$1\" >/dev/null && echo \"deleted     $2\"\n")
	w("}\n")
	w("# once KEY METHOD PATH BODY NAME: a change that cannot be read back (a reset) runs once,\n")
	w("# remembered in $DONE_DIR.\n")
	w("once() {\n")
	w("  mkdir -p \"$DONE_DIR\"\n")
	w("  if [ -e \"$DONE_DIR/$1\" ]; then echo \"already done $5\"; return; fi\n")
	w("  send \"$2\" \"$3\" \"$4\" && : >\"$DONE_DIR/$1\" && echo \"done        $5\"\n")
	w("}\n\n")
	for i, r := range p.Rows {
		if r.Skip != "" {
			w("# skipped %s: %s\n", oneLine(r.Resource()), oneLine(r.Skip))
			continue
		}
		switch r.Op {
		case OpServiceUpdate:
			if r.Update == nil {
				continue
			}
			body, _ := json.Marshal(r.Update)
			w("change %s %s %s %s\n", shq(servicePath(r.Project, r.Service)), shq(RunbookCheck(*r.Update)), shq(string(body)), shq(r.Resource()))
		case OpServiceDelete:
			w("gone %s %s\n", shq(servicePath(r.Project, r.Service)), shq(r.Resource()))
		case OpUserReset:
			path := servicePath(r.Project, r.Service) + "/user/" + url.PathEscape(r.User)
			w("once %s PUT %s %s %s\n", shq(fmt.Sprintf("row-%d", i+1)), shq(path), shq(`{"operation":"reset-credentials"}`), shq(r.Resource()))
		}
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
