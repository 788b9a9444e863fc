# Services: demo services with badges, create through the form and watch it turn
# RUNNING, masked connection info in the detail, an edit reviewed with its monthly price
# before it is sent, power off only after typing the name, delete by typing the name,
# opening another project's service from the all-projects view, and the layout at
# 80x24 and 160x50.
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
	wait_for s '┃ Service type' 5 || return 1
	advance s 'Cloud' || return 1                       # first type
	send s Enter                                        # the project's default cloud
	wait_for s 'Create caching in acme-prod' 10 || return 1
	wait_for s '┃ Plan' 5 || return 1
	advance s 'Name' || return 1                        # first plan
	type_text s 'e2e-cache'
	advance s 'Disk size in GB' || return 1
	type_text s '1'; wait_for s 'disk must be at least .* GB: the size of plan' 5 || return 1
	send s BSpace; wait_gone s 'disk must be at least' 5 || return 1
	advance s 'Termination protection' || return 1
	advance s 'Project VPC id' || return 1
	advance s 'IP filter' || return 1
	send s Enter # the form ends in a review: what is created, where, and its cost
	wait_for s 'Create e2e-cache: review' 10 || return 1
	assert_screen s 'Monthly cost +\$[0-9.,]+/month' || return 1
	assert_screen s 'Nothing is sent until you press enter' || return 1
	send s Enter
	wait_for s 'Created e2e-cache|e2e-cache .*(REBUILDING|RUNNING)' 10 || return 1
	wait_for s 'e2e-cache .*● RUNNING' 20 || return 1

	log "detail with masked connection info"
	filter_to s 'e2e-cache' || return 1
	send s Enter
	wait_for s 'Connection' 10 || return 1
	wait_for s 'Host' 10 || return 1
	wait_for s '••••••••' 10 || return 1
	refute_screen s 'AVNS_' || return 1

	log "edit: the review shows the monthly price before anything is sent"
	send s e; wait_for s 'Edit e2e-cache' 10 || return 1
	wait_for s '┃ Plan' 5 || return 1
	send s Down; wait_for s '> \S+ +\$[0-9.,]+/month \([+-]\$' 5 || return 1
	local f
	for f in 'Cloud' 'Disk size in GB' 'Power' 'Termination protection' 'Maintenance day' 'Maintenance time' 'IP filter'; do
		advance s "$f" || return 1
	done
	send s Enter
	wait_for s 'Edit e2e-cache: review' 10 || return 1
	assert_screen s '\$[0-9.,]+/month → \$[0-9.,]+/month' || return 1
	assert_screen s 'Nothing is sent until you press enter' || return 1
	send s Enter
	wait_for s 'Saved e2e-cache' 10 || return 1

	log "power off only after the review and the typed name"
	wait_for s '● RUNNING' 20 || return 1
	send s e; wait_for s '┃ Plan' 10 || return 1
	for f in 'Cloud' 'Disk size in GB' 'Power'; do advance s "$f" || return 1; done
	send s Down; wait_for s '> off' 5 || return 1
	for f in 'Termination protection' 'Maintenance day' 'Maintenance time' 'IP filter'; do
		advance s "$f" || return 1
	done
	send s Enter
	wait_for s 'Edit e2e-cache: review' 10 || return 1
	assert_screen s 'on → off' || return 1
	send s Enter
	wait_for s 'Type e2e-cache to confirm' 10 || return 1
	assert_screen s 'data without a backup' || return 1
	type_text s 'e2e-cach'; send s Enter
	refute_screen s 'Saved e2e-cache' || return 1
	type_text s 'e'; send s Enter
	# The sandbox answers POWEROFF at once: the watch's "is POWEROFF after its power
	# off" can follow "Saved" within the same second, so the state is what is awaited.
	wait_for s 'Saved e2e-cache|○ POWEROFF' 10 || return 1
	wait_for s '○ POWEROFF' 10 || return 1

	log "delete by typing the name"
	send s d; wait_for s 'irreversible' 10 || return 1
	type_text s 'e2e-cach'; send s Enter
	refute_screen s 'Deleted service' || return 1
	type_text s 'e'; send s Enter
	wait_for s 'Deleted service e2e-cache' 10 || return 1

	log "opening another project's service makes that project current"
	send s a; wait_for s 'Services \(all projects\)' 10 || return 1
	filter_to s 'pg-analytics' || return 1
	send s Enter
	wait_for s 'Current project: acme-analytics' 10 || return 1
	assert_screen s 'as developer' || return 1
	stop_ui s

	log "layout at 80x24 and 160x50"
	start_ui small 80 24 "$ADMIN_TOKEN" || return 1
	wait_for small 'acme-prod' 10 || return 1
	send small 2
	wait_for small 'pg-main' 10 || return 1
	assert_fits small || return 1
	send small e; wait_for small 'Edit ' 10 || return 1
	assert_fits small || return 1
	# Esc and c in one terminal read are alt+c (Bubble Tea v1 has no escape timeout):
	# the next key goes once the form is gone.
	send small Escape; wait_gone small 'Edit ' 10 || return 1
	send small c; wait_for small 'Create service' 10 || return 1
	assert_fits small || return 1
	start_ui big 160 50 "$ADMIN_TOKEN" || return 1
	wait_for big 'acme-prod' 10 || return 1
	send big 2; send big a
	wait_for big 'acme-analytics +clickhouse-warehouse' 10 || return 1
	assert_fits big || return 1
	stop_ui small; stop_ui big
}
