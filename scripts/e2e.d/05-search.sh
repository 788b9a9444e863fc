# Search: tab 5 connects to the demo opensearch service over TLS, the index list shows
# logs-app, a search inserted from the index list runs with F5 and shows hits and the
# server's took, v switches to raw JSON, and the layout fits at 80x24.
flow_search() {
	start_sandbox || return 1
	start_ui s 120 40 "$ADMIN_TOKEN" || return 1
	wait_for s 'acme-prod' 10 || return 1
	send s 5
	wait_for s 'logs-app' 10 || return 1
	wait_for s 'opensearch-logs' 10 || return 1
	wait_for s 'cluster ● green' 10 || return 1

	log "insert a search from the index list and run it with F5"
	send s Tab; sleep 0.2; send s Tab; sleep 0.2
	wait_for s '▸ Indices' || return 1
	send s Enter
	wait_for s 'GET /logs-app/_search' || return 1
	send s F5
	wait_for s '5000 hits' 10 || return 1
	assert_screen s 'took [0-9]+ms' || return 1
	assert_screen s 'latency_ms' || return 1

	log "raw JSON view"
	send s Tab; sleep 0.2
	send s v
	wait_for s 'raw JSON' || return 1
	wait_for s '"_index": "logs-app"' || return 1
	assert_fits s || return 1
	stop_ui s

	log "80x24: the same search fits"
	start_ui small 80 24 "$ADMIN_TOKEN" || return 1
	wait_for small 'acme-prod' 10 || return 1
	send small 5
	wait_for small 'logs-app' 10 || return 1
	send small Tab; sleep 0.2; send small Tab; sleep 0.2; send small Enter; sleep 0.2
	send small F5
	wait_for small '5000 hits' 10 || return 1
	assert_fits small || return 1
	stop_ui small
}
