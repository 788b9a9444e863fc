# Services: demo services with badges, create through the form and watch it turn
# RUNNING, masked connection info in the detail, delete by typing the name, and the
# layout at 80x24.
flow_services() {
	start_sandbox --provision-delay 3s || return 1
	start_ui s 120 40 "$ADMIN_TOKEN" || return 1
	wait_for s 'acme-prod' 10 || return 1
	send s 2
	wait_for s 'pg-main' 10 || return 1
	assert_screen s '● RUNNING' || return 1
	assert_screen s '⛨ on' || return 1

	log "create a service through the form"
	send s c; wait_for s 'Create service in acme-prod' 10 || return 1
	sleep 0.3; send s Enter; sleep 0.4; send s Enter    # first type, default cloud
	wait_for s 'Create caching in acme-prod' 10 || return 1
	sleep 0.3; send s Enter; sleep 0.4                   # first plan
	type_text s 'e2e-cache'; sleep 0.4
	local i; for i in 1 2 3 4 5; do send s Enter; sleep 0.4; done
	wait_for s 'Create this service' 10 || return 1
	assert_screen s '/month' || return 1
	# huh moves focus to the confirm button with a command: let it land before enter.
	sleep 0.4; send s Enter
	wait_for s 'Created e2e-cache|e2e-cache .*(REBUILDING|RUNNING)' 10 || return 1
	wait_for s 'e2e-cache .*(REBUILDING|RUNNING)' 10 || return 1
	wait_for s 'e2e-cache .*● RUNNING' 20 || return 1

	log "detail with masked connection info"
	send s '/'; type_text s 'e2e-cache'; send s Enter; sleep 0.3
	send s Enter
	wait_for s 'Connection' 10 || return 1
	wait_for s 'Host' 10 || return 1
	wait_for s '••••••••' 10 || return 1
	refute_screen s 'AVNS_' || return 1

	log "delete by typing the name"
	send s d; wait_for s 'irreversible' 10 || return 1
	type_text s 'e2e-cach'; send s Enter; sleep 0.3
	refute_screen s 'Deleted service' || return 1
	type_text s 'e'; send s Enter
	wait_for s 'Deleted service e2e-cache' 10 || return 1
	stop_ui s

	log "layout at 80x24"
	start_ui small 80 24 "$ADMIN_TOKEN" || return 1
	wait_for small 'acme-prod' 10 || return 1
	send small 2
	wait_for small 'pg-main' 10 || return 1
	assert_fits small || return 1
	send small c; wait_for small 'Create service' 10 || return 1
	assert_fits small || return 1
	stop_ui small
}
