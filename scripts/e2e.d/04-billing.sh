# Billing: tab 4 lists the groups; a group's detail and invoices (states, currency); y
# copies the download link (footer sentence); a group's estimate, a project's with bars;
# credits gauge; the edit's review; the layout at 80x24. Waits on the screen, never sleeps.
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
	wait_for b 'download link of invoice AUS-' 10 || return 1
	refute_screen b 'token=' || return 1

	log "a group's estimate, then a project's with bars"
	send b Escape; wait_for b 'Invoices \(13\) —' 5 || return 1
	send b Escape; wait_for b 'Acme Europe +EUR +card' 5 || return 1
	send b j E
	wait_for b 'Estimate of Acme Europe' 10 || return 1
	wait_for b 'Total EUR' 10 || return 1
	send b Enter
	wait_for b 'estimated balance' 10 || return 1
	wait_for b 'kafka-events .*EUR +█' 10 || return 1

	log "credits"
	send b Escape; wait_for b 'Total EUR' 5 || return 1
	send b Escape; wait_for b 'Acme Europe +EUR +card' 5 || return 1
	send b C
	wait_for b '% left' 10 || return 1
	assert_screen b '342.75 USD' || return 1

	log "edit ends with a review; nothing is sent before enter"
	send b Escape; wait_for b 'Acme Europe +EUR +card' 5 || return 1
	send b e
	wait_for b '┃ Name' 5 || return 1
	for f in Currency Company 'Billing e-mails' 'Address lines' City 'State or province' 'ZIP code' 'Country code' 'VAT id'; do
		advance b "$f" || return 1
	done
	send b BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
	type_text b FI99999999
	send b Enter
	wait_for b 'review' 5 || return 1
	assert_screen b 'VAT id +FI28765432 → FI99999999' || return 1
	send b Enter
	wait_for b 'Saved billing group Acme Europe' 10 || return 1
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
	send small Escape; wait_for small '500 Market Street' 5 || return 1
	send small Escape; wait_for small 'Acme Americas +USD' 5 || return 1
	send small E; wait_for small 'Total USD' 10 || return 1
	assert_fits small || return 1
	send small Enter; wait_for small 'estimated balance' 10 || return 1
	assert_fits small || return 1
}
