# Users (tab 3) at 80x24: pick a pg service (it becomes current), create a user (the
# cursor lands on it) and see its one-time secret, copy it, check it is gone after
# closing, reset credentials, delete by typing the name; the primary user's reset asks
# for its name; :databases then opens the current service's databases without a picker.
flow_users() {
	start_sandbox || return 1
	start_ui u 80 24 "$ADMIN_TOKEN" || return 1
	wait_for u 'acme-prod' 10 || return 1

	log "pick pg-main in the Users tab"
	send u 3; wait_for u 'pg-main' 10 || return 1
	assert_fits u || return 1
	filter_to u 'pg-main' || return 1
	send u Enter; wait_for u 'app_rw' 10 || return 1
	assert_screen u 'acme-prod › pg-main › users' || return 1
	assert_screen u 'primary' || return 1
	assert_fits u || return 1

	log "create a user: validation as typed, then the one-time secret"
	# The form's focused field, not 'Username': the list's own header says Username.
	send u c; wait_for u '┃ Username' || return 1
	type_text u 'e2'; wait_for u 'at least 3 characters' || return 1
	type_text u 'e_user'; wait_gone u 'at least 3 characters' || return 1
	advance u 'Authentication' || return 1
	send u Enter
	wait_for u 'shown only once' 10 || return 1
	assert_screen u 'it will not be shown' || return 1
	assert_fits u || return 1
	local pw; pw=$(screen u | grep -oE 'AVNS_[A-Za-z0-9_-]+' | head -1)
	[ -n "$pw" ] || { log "no password on the secret modal"; return 1; }
	log "copy inside the modal: the outcome shows there"
	send u y; wait_for u 'password to tmux|password to your terminal' || return 1
	send u Escape; wait_gone u 'shown only once' || return 1
	refute_screen u "$pw" || return 1
	log "the cursor is on the new user"
	assert_screen u '› e2e_user' || return 1

	log "reset credentials: confirm, a new password"
	send u R; wait_for u 'Reset the credentials of e2e_user' || return 1
	send u y; wait_for u 'New credentials for e2e_user' 10 || return 1
	local pw2; pw2=$(screen u | grep -oE 'AVNS_[A-Za-z0-9_-]+' | head -1)
	[ -n "$pw2" ] && [ "$pw2" != "$pw" ] || { log "reset did not show a new password"; return 1; }
	send u Escape; wait_gone u 'New credentials' || return 1
	refute_screen u "$pw2" || return 1

	log "delete by typing the name"
	send u d; wait_for u 'Type e2e_user to confirm' || return 1
	assert_fits u || return 1
	type_text u 'e2e_use'; wait_for u 'keep typing' || return 1
	send u Enter
	assert_screen u 'Type e2e_user to confirm' || return 1
	type_text u 'r'; wait_for u 'name matches' || return 1
	send u Enter
	wait_for u 'Deleted user e2e_user' 10 || return 1
	assert_fits u || return 1

	log "the primary user's reset says what breaks and needs its name"
	filter_to u 'avnadmin' || return 1
	send u R; wait_for u 'Type avnadmin to confirm' || return 1
	assert_screen u 'breaks every' || return 1
	assert_fits u || return 1
	send u Enter
	assert_screen u 'Type avnadmin to confirm' || return 1
	send u Escape; wait_gone u 'Type avnadmin' || return 1
	send u Escape; wait_gone u 'filter “avnadmin”' || return 1

	log ":databases opens the current service's databases"
	send u :; type_text u 'databases'; send u Enter
	wait_for u 'acme-prod › pg-main › databases' 10 || return 1
	wait_for u 'defaultdb' 10 || return 1
	refute_screen u 'Choose a service' || return 1
	assert_fits u || return 1
}
