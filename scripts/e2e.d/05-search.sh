# Search: tab 5 connects to the demo opensearch service over TLS, the index list shows
# logs-app, a search inserted from the index list runs with F5 and shows hits laid out
# for logs (time first, the message with the room left), enter opens a hit (n next, v raw
# JSON, esc back), z shows the results full screen, v switches to raw JSON, the editor's
# text comes back after a restart, and the layout fits at 80x24, 120x40 and 160x50.

# search_logs SESSION: opens the Search tab, inserts a search of logs-app from the index
# list and runs it.
search_logs() {
	local s=$1
	wait_for "$s" 'acme-prod' 10 || return 1
	send "$s" 5
	wait_for "$s" 'logs-app' 10 || return 1
	wait_for "$s" 'cluster ● green' 10 || return 1
	send "$s" Tab; wait_for "$s" '▸ Results' || return 1
	send "$s" Tab; wait_for "$s" '▸ Indices' || return 1
	send "$s" Enter
	wait_for "$s" 'GET /logs-app/_search' || return 1
	send "$s" F5
	wait_for "$s" 'hits 1–20 of [0-9,]+' 10 || return 1
}

# message_room SESSION MIN: the results' message column starts at least MIN columns
# before the pane's right edge. A layout check, so it holds for whatever demo logs the
# random seed made (a six-word message among 20 random hits did not always exist).
message_room() {
	local s=$1 min=$2 w header col
	w=$(tm display-message -p -t "$s" '#{pane_width}')
	header=$(screen "$s" | grep -E '@timestamp .* message' | head -n 1)
	[ -n "$header" ] || { echo "    no results header on screen:"; screen "$s" | sed 's/^/    | /'; return 1; }
	col=$(printf '%s' "${header%%message*}" | LC_ALL=C.UTF-8 wc -m)
	[ $((w - col)) -ge "$min" ] && return 0
	echo "    the message column has $((w - col)) columns of $w, want at least $min:"
	screen "$s" | sed 's/^/    | /'
	return 1
}

flow_search() {
	start_sandbox || return 1
	start_ui s 120 40 "$ADMIN_TOKEN" || return 1
	search_logs s || return 1
	wait_for s 'opensearch-logs' || return 1
	assert_screen s 'took [0-9]+ms' || return 1
	assert_screen s '@timestamp .* message' || return 1
	log "the message column reads as a sentence, not six characters"
	assert_screen s '[0-9]{2}-[0-9]{2} [0-9:.]+ .*[A-Za-z]+ [a-z]+ [a-z]+ [a-z]+' || return 1
	message_room s 30 || return 1

	log "enter opens a hit; n moves on; v shows its JSON; esc goes back"
	# enter on the index ran its search and put the focus on the results
	wait_for s '▸ Results' || return 1
	send s Enter
	wait_for s 'Hit 1 of 20' || return 1
	assert_screen s '_index +logs-app' || return 1
	send s n
	wait_for s 'Hit 2 of 20' || return 1
	send s v
	wait_for s '"_source": \{' || return 1
	assert_fits s || return 1
	send s Escape
	wait_for s '▸ Results' || return 1
	assert_screen s '2/20' || return 1

	log "full screen results"
	send s z
	wait_for s 'results full screen' || return 1
	refute_screen s 'Editor' || return 1
	send s Escape
	wait_for s '▸ Editor|Indices' || return 1

	log "raw JSON view"
	send s v
	wait_for s 'raw JSON' || return 1
	wait_for s '"_index": "logs-app"' || return 1
	assert_fits s || return 1
	stop_ui s

	log "the editor's text is kept for the service across a restart"
	start_ui s 120 40 "$ADMIN_TOKEN" || return 1
	wait_for s 'acme-prod' 10 || return 1
	send s 5
	wait_for s 'GET /logs-app/_search' 10 || return 1
	stop_ui s

	log "80x24: the same search fits"
	start_ui small 80 24 "$ADMIN_TOKEN" || return 1
	search_logs small || return 1
	assert_fits small || return 1
	stop_ui small

	log "160x50: the message takes the room"
	start_ui wide 160 50 "$ADMIN_TOKEN" || return 1
	search_logs wide || return 1
	message_room wide 45 || return 1
	assert_fits wide || return 1
	stop_ui wide
}
