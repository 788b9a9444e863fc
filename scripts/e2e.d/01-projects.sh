# Projects: first screen, create with as-typed validation, delete by typing the name,
# refusal when services remain, read-only mode, and the layout at 80x24 and 160x50.
flow_projects() {
	start_sandbox || return 1
	start_ui p 120 40 "$ADMIN_TOKEN" || return 1
	wait_for p 'acme-prod' 10 || return 1
	assert_screen p '1 Projects' || return 1
	assert_screen p 'acme-analytics +developer' || return 1

	log "create: validation as typed, then success"
	send p c; wait_for p 'Create project' || return 1
	type_text p 'AB'; wait_for p 'at least 3 characters' || return 1
	send p BSpace BSpace; type_text p 'e2e-flow'
	wait_gone p 'at least 3 characters' || return 1
	advance p 'Default cloud' || return 1
	advance p 'Billing group' || return 1
	advance p 'Copy settings from' || return 1
	send p Enter
	wait_for p 'Created project e2e-flow' 10 || return 1
	assert_screen p 'e2e-flow' || return 1

	log "delete refused while services remain"
	filter_to p 'acme-staging' || return 1
	send p d; wait_for p 'Delete project' || return 1
	type_text p 'acme-staging'; send p Enter
	wait_for p 'has services' 10 || return 1

	log "delete by typing the name"
	send p Escape; wait_gone p 'filter “acme-staging”' || return 1
	filter_to p 'e2e-flow' || return 1
	send p d; wait_for p 'Delete project' || return 1
	type_text p 'e2e-fl'; wait_for p 'does not match|keep typing' || return 1
	send p Enter
	assert_screen p 'Delete project' || return 1
	type_text p 'ow'; send p Enter
	wait_for p 'Deleted project e2e-flow' 10 || return 1
	stop_ui p

	log "read-only refuses mutations"
	start_ui ro 120 40 "$ADMIN_TOKEN" --read-only || return 1
	wait_for ro 'READ-ONLY' 10 || return 1
	refute_screen ro 'c create' || return 1
	send ro c; wait_for ro 'Read-only mode' || return 1
	stop_ui ro

	log "layout at 80x24 and 160x50"
	start_ui small 80 24 "$ADMIN_TOKEN" || return 1
	wait_for small 'acme-prod' 10 || return 1
	assert_fits small || return 1
	start_ui big 160 50 "$ADMIN_TOKEN" || return 1
	wait_for big 'acme-prod' 10 || return 1
	assert_fits big || return 1
	start_ui tiny 70 20 "$ADMIN_TOKEN" || return 1
	wait_for tiny 'too small' 10 || return 1
}
