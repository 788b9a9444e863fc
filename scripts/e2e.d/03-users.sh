# Users (tab 3) at 80x24: pick a pg service, create a user and see its one-time secret,
# copy it, check it is gone after closing, reset credentials, delete by typing the name.
flow_users() {
	start_sandbox || return 1
	start_ui u 80 24 "$ADMIN_TOKEN" || return 1
	wait_for u 'acme-prod' 10 || return 1

	log "pick pg-main in the Users tab"
	send u 3; wait_for u 'pg-main' 10 || return 1
	assert_fits u || return 1
	send u '/'; type_text u 'pg-main'; send u Enter; sleep 0.3
	send u Enter; wait_for u 'app_rw' 10 || return 1
	assert_screen u 'acme-prod › pg-main' || return 1
	assert_screen u 'primary' || return 1
	assert_fits u || return 1

	log "create a user: validation as typed, then the one-time secret"
	send u c; wait_for u 'Username' || return 1
	type_text u 'e2'; wait_for u 'at least 3 characters' || return 1
	type_text u 'e_user'; wait_gone u 'at least 3 characters' || return 1
	send u Enter; wait_for u 'scram-sha-256' || return 1
	sleep 0.3; send u Enter
	wait_for u 'shown only once' 10 || return 1
	assert_screen u 'it will not be shown' || return 1
	assert_fits u || return 1
	local pw; pw=$(screen u | grep -oE 'AVNS_[A-Za-z0-9_-]+' | head -1)
	[ -n "$pw" ] || { log "no password on the secret modal"; return 1; }
	send u y; sleep 0.3
	send u Escape; wait_for u 'Copied password' || return 1
	refute_screen u "$pw" || return 1
	assert_screen u 'e2e_user' || return 1

	log "reset credentials: confirm, a new password"
	send u '/'; sleep 0.2; type_text u 'e2e_user'; sleep 0.2; send u Enter
	wait_for u 'filter .e2e_user' || return 1
	send u R; wait_for u 'Reset the credentials of e2e_user' || return 1
	send u y; wait_for u 'New credentials for e2e_user' 10 || return 1
	local pw2; pw2=$(screen u | grep -oE 'AVNS_[A-Za-z0-9_-]+' | head -1)
	[ -n "$pw2" ] && [ "$pw2" != "$pw" ] || { log "reset did not show a new password"; return 1; }
	send u Escape; wait_gone u 'New credentials' || return 1
	refute_screen u "$pw2" || return 1

	log "delete by typing the name"
	send u d; wait_for u 'Type e2e_user to confirm' || return 1
	assert_fits u || return 1
	type_text u 'e2e_use'; send u Enter; sleep 0.3
	assert_screen u 'Type e2e_user to confirm' || return 1
	type_text u 'r'; send u Enter
	wait_for u 'Deleted user e2e_user' 10 || return 1
	assert_fits u || return 1
}
