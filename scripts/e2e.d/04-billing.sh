# Billing: tab 4 lists the groups; a group's detail and invoices (states, currency); y
# copies the download link (footer sentence); estimates with bars; credits gauge; the
# layout at 80x24.
flow_billing() {
	start_sandbox || return 1
	start_ui b 120 40 "$ADMIN_TOKEN" || return 1
	wait_for b 'acme-prod' 10 || return 1
	send b 4
	wait_for b '\[4 Billing\]' 10 || return 1
	wait_for b 'Acme Americas +USD' 10 || return 1
	assert_screen b 'Acme Europe +EUR +card' || return 1

	log "open a group: every field, projects, invoices"
	send b Enter
	wait_for b 'Invoices \(13\)' 10 || return 1
	wait_for b '500 Market Street' 10 || return 1
	wait_for b 'acme-analytics' 10 || return 1

	log "invoices: states and currency, y copies the link"
	send b i
	wait_for b 'Total incl. VAT' 10 || return 1
	wait_for b 'unpaid' 10 || return 1
	assert_screen b 'paid' || return 1
	assert_screen b 'AUS-[0-9-]+ .* USD' || return 1
	send b y
	wait_for b 'Copied download link of invoice AUS-' 10 || return 1
	refute_screen b 'token=' || return 1

	log "estimates with bars, credits"
	send b Escape; sleep 0.3; send b Escape; sleep 0.3
	send b E
	wait_for b 'estimated balance' 10 || return 1
	wait_for b 'kafka-events .*EUR +█' 10 || return 1
	send b Escape; sleep 0.3
	send b C
	wait_for b '% left' 10 || return 1
	assert_screen b '342.75 USD' || return 1
	stop_ui b

	log "layout at 80x24"
	start_ui small 80 24 "$ADMIN_TOKEN" || return 1
	wait_for small 'acme-prod' 10 || return 1
	send small 4
	wait_for small '\[4 Billing\]' 10 || return 1
	wait_for small 'Acme Americas +USD' 10 || return 1
	assert_fits small || return 1
	send small Enter; wait_for small '500 Market Street' 10 || return 1
	assert_fits small || return 1
	send small i; wait_for small 'unpaid' 10 || return 1
	assert_fits small || return 1
	send small Escape; sleep 0.3; send small Escape; sleep 0.3
	send small E; wait_for small 'estimated balance' 10 || return 1
	assert_fits small || return 1
}
