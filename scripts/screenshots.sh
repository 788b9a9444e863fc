#!/usr/bin/env bash
# Screenshots of the main screens for the README, made the way a person sees them: the
# built binary in tmux (120x36, xterm-256color, dark theme) against `svcui sandbox
# --seed 1`, driven with send-keys, each step waiting for what it needs on screen, then
# captured with colours (capture-pane -e) and rendered to SVG by charmbracelet/freeze.
#
# Writes assets/screenshots/NN-name.svg, replacing the previous set only when every shot
# succeeded. The data comes from --seed 1; clock times, ages, log timestamps and the
# sandbox's CA certificate follow the day of the run. Usage: scripts/screenshots.sh (make screenshots builds and installs first).
# Environment: SVCUI_BIN (default bin/svcui), FREEZE (default freeze on PATH or in GOBIN),
# SCREENSHOTS_DIR (default assets/screenshots).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BIN=${SVCUI_BIN:-$root/bin/svcui}
OUT=${SCREENSHOTS_DIR:-$root/assets/screenshots}
FREEZE=${FREEZE:-$(command -v freeze || echo "$(go env GOPATH 2>/dev/null | cut -d: -f1)/bin/freeze")}
COLS=120 ROWS=36
SESSION=shots
SOCKET="svcui-screenshots-$$"
SANDBOX_PID=

# The picture: font size 14 puts 120 columns in about 1050 pixels; a character cell is
# 0.6 em wide, the advance of common monospace fonts; PAD is freeze's padding.
FONT_SIZE=14 LINE_HEIGHT=1.25 PAD=20
FONTS="JetBrains Mono, Cascadia Mono, SF Mono, Menlo, Consolas, DejaVu Sans Mono, Liberation Mono, monospace"

die() { echo "screenshots: $*" >&2; exit 1; }

[ -x "$BIN" ] || die "$BIN is missing; run make build first (or make screenshots)."
[ -x "$FREEZE" ] || die "freeze is not installed; run: go install github.com/charmbracelet/freeze@v0.2.2 (make screenshots does)."
for tool in tmux curl perl; do
	command -v "$tool" >/dev/null || die "$tool is required (apt-get install -y $tool)."
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/svcui-screenshots.XXXXXX")
tm() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
cleanup() {
	local socket
	socket=$(tm display-message -p '#{socket_path}' 2>/dev/null) || true
	tm kill-server >/dev/null 2>&1 || true
	if [ -n "$socket" ]; then rm -f "$socket"; fi   # tmux leaves the socket file behind
	if [ -n "$SANDBOX_PID" ]; then kill "$SANDBOX_PID" >/dev/null 2>&1 || true; wait "$SANDBOX_PID" 2>/dev/null || true; fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

screen() { tm capture-pane -p -t "$SESSION"; }
# on_screen REGEX: whether the screen matches now (captured first: with pipefail, grep -q
# quitting early could fail the pipe on a match).
on_screen() { local s; s=$(screen) && grep -Eq -- "$1" <<<"$s"; }
send() { tm send-keys -t "$SESSION" "$@"; }
type_text() { tm send-keys -t "$SESSION" -l "$1"; }

# wait_for STEP REGEX [SECONDS]: polls the screen until REGEX (grep -E) matches, or stops
# the run with a sentence naming the step and the screen as it was.
wait_for() {
	local step=$1 re=$2 secs=${3:-15} i
	for ((i = 0; i < secs * 10; i++)); do
		if on_screen "$re"; then return 0; fi
		sleep 0.1
	done
	{
		echo "screenshots: step \"$step\" failed: /$re/ did not appear on screen within ${secs}s. The screen was:"
		screen | sed 's/^/  | /'
		if [ -s "$WORK/svcui.log" ]; then echo "last lines of the svcui log:"; tail -n 15 "$WORK/svcui.log" | sed 's/^/  | /'; fi
	} >&2
	exit 1
}

# wait_gone STEP REGEX [SECONDS]: polls until REGEX no longer matches.
wait_gone() {
	local step=$1 re=$2 secs=${3:-15} i
	for ((i = 0; i < secs * 10; i++)); do
		if ! on_screen "$re"; then return 0; fi
		sleep 0.1
	done
	echo "screenshots: step \"$step\" failed: /$re/ was still on screen after ${secs}s. The screen was:" >&2
	screen | sed 's/^/  | /' >&2
	exit 1
}

# filter_to STEP TEXT: applies the table filter TEXT and waits until it is in force.
filter_to() {
	send /; wait_for "$1" '^/'
	type_text "$2"; send Enter
	wait_for "$1" "filter “$2”"
}

# focus_pane NAME: presses tab until the Search tab's pane NAME has the focus (▸ NAME).
focus_pane() {
	local i
	for ((i = 0; i < 4; i++)); do
		if on_screen "▸ $1"; then return 0; fi
		send Tab; sleep 0.2
	done
	wait_for "focus $1" "▸ $1" 2
}

# cursor_to STEP LABEL: presses j until the cursor (›) is on the row starting with LABEL,
# waiting after each press for the screen to change.
cursor_to() {
	local step=$1 re="^› +$2" i j before
	for ((i = 0; i < 40; i++)); do
		on_screen "$re" && return 0
		before=$(screen); send j
		for ((j = 0; j < 50; j++)); do [ "$(screen)" != "$before" ] && break; sleep 0.1; done
	done
	wait_for "$step" "$re" 1
}

# normalise: freeze understands only part of SGR (no default colours 39/49, no reverse,
# no faint, no bold, no 40-47, and it starts each line unstyled), so every style change
# is rewritten as a full reset-and-set with RGB colours, each line restates the style it
# starts with and is padded to the pane's width. Bold travels in the lowest bit of the
# blue channel (invisible), for place.pl. Basic colours: VS Code's dark terminal palette.
cat >"$WORK/normalise.pl" <<'PERL'
use strict; use warnings;
binmode STDIN, ':encoding(UTF-8)'; binmode STDOUT, ':encoding(UTF-8)';
my @ansi = qw(000000 cd3131 0dbc79 e5e510 2472c8 bc3fbc 11a8cd e5e5e5
              666666 f14c4c 23d18b f5f543 3b8eea d670d6 29b8db ffffff);
my ($cols) = @ARGV;
my ($deffg, $defbg) = ('cccccc', '1e1e1e');
sub x256 { my $n = shift;
	return $ansi[$n] if $n < 16;
	if ($n < 232) { $n -= 16; my @v = (0, 95, 135, 175, 215, 255);
		return sprintf '%02x%02x%02x', $v[int($n / 36)], $v[int($n / 6) % 6], $v[$n % 6]; }
	my $g = 8 + 10 * ($n - 232); return sprintf '%02x%02x%02x', $g, $g, $g; }
my %s;
sub reset_style { %s = (fg => undef, bg => undef, bold => 0, faint => 0, italic => 0, ul => 0, rev => 0, strike => 0); }
reset_style();
sub colour { my ($p, $i) = @_;
	my $kind = $p->[$$i + 1] // -1;
	if ($kind == 5) { $$i += 2; return x256($p->[$$i] // 0); }
	if ($kind == 2) { my @c = map { $_ // 0 } @$p[$$i + 2 .. $$i + 4]; $$i += 4; return sprintf '%02x%02x%02x', @c; }
	return undef; }
sub apply { my @p = map { $_ eq '' ? 0 : $_ } split /[;:]/, shift, -1; @p = (0) unless @p;
	for (my $i = 0; $i < @p; $i++) { my $v = $p[$i];
		if    ($v == 0)  { reset_style() }
		elsif ($v == 1)  { $s{bold} = 1 }    elsif ($v == 2)  { $s{faint} = 1 }
		elsif ($v == 3)  { $s{italic} = 1 }
		elsif ($v == 4)  { $s{ul} = 1 }      elsif ($v == 7)  { $s{rev} = 1 }
		elsif ($v == 9)  { $s{strike} = 1 }  elsif ($v == 22) { $s{bold} = $s{faint} = 0 }
		elsif ($v == 23) { $s{italic} = 0 }  elsif ($v == 24) { $s{ul} = 0 }
		elsif ($v == 27) { $s{rev} = 0 }     elsif ($v == 29) { $s{strike} = 0 }
		elsif ($v >= 30 && $v <= 37)   { $s{fg} = $ansi[$v - 30] }
		elsif ($v >= 90 && $v <= 97)   { $s{fg} = $ansi[$v - 82] }
		elsif ($v >= 40 && $v <= 47)   { $s{bg} = $ansi[$v - 40] }
		elsif ($v >= 100 && $v <= 107) { $s{bg} = $ansi[$v - 92] }
		elsif ($v == 38) { $s{fg} = colour(\@p, \$i) } elsif ($v == 48) { $s{bg} = colour(\@p, \$i) }
		elsif ($v == 39) { $s{fg} = undef }            elsif ($v == 49) { $s{bg} = undef } } }
sub rgb { map { hex } unpack '(A2)3', shift }
sub mix { my @a = rgb(shift); my @b = rgb(shift); sprintf '%02x%02x%02x', map { ($a[$_] + $b[$_]) / 2 } 0 .. 2 }
sub sgr { my $fg = $s{fg} // $deffg; my $bg = $s{bg};
	($fg, $bg) = ($bg // $defbg, $fg) if $s{rev};
	$fg = mix($fg, $bg // $defbg) if $s{faint};
	my @c = (0); push @c, 3 if $s{italic}; push @c, 4 if $s{ul}; push @c, 9 if $s{strike};
	my @fg = rgb($fg); $fg[2] = $s{bold} ? $fg[2] | 1 : $fg[2] & ~1;
	push @c, 38, 2, @fg;
	push @c, 48, 2, rgb($bg) if defined $bg;
	return "\e[" . join(';', @c) . 'm'; }
while (my $line = <STDIN>) {
	chomp $line;
	$line =~ s/\e\[[0-9;:?]*[A-Za-ln-z]//g;                  # only styles (SGR) are kept
	my $out = sgr() . $line;
	$out =~ s/\e\[([0-9;:]*)m/apply($1); sgr()/ge;
	(my $plain = $line) =~ s/\e\[[0-9;:]*m//g;
	$out .= "\e[0m" . ' ' x ($cols - length $plain) if length $plain < $cols;
	$out =~ s/(?:\e\[[0-9;]*m)+(\e\[[0-9;]*m)/$1/g;           # only the last of a run counts
	print $out, "\n";
}
PERL

# place: freeze lets text flow in the font's own advance and sizes backgrounds with its
# own cell width, so a glyph missing from the viewer's font (spinners, ⛨) or a font of
# another width would shift the rest of the line. Every character is put at its column
# instead and backgrounds snapped to the same grid. Box-drawing lines and block elements
# become vector strokes and rectangles filling their cells, as terminals draw them
# (font glyphs leave gaps between lines); underlines and strike-throughs are drawn rules
# (a browser skips them under separately placed spaces). Bold comes through the blue bit
# set by normalise.pl (freeze drops it). A font stack replaces freeze's single family,
# and a viewBox lets the picture scale down in a narrow README column.
cat >"$WORK/place.pl" <<'PERL'
use strict; use warnings;
binmode STDIN, ':encoding(UTF-8)'; binmode STDOUT, ':encoding(UTF-8)';
my ($size, $lh, $left, $fonts) = @ARGV;
my ($cw, $ch) = (0.6 * $size, $size * $lh);     # the grid: the cell of common monospace fonts
my $freeze_cell = $size / 1.68;                 # freeze's idea of a cell
my %weight = (light => $size / 12, heavy => $size / 5, rule => $size / 14);
# Box drawing: arms from the cell's centre (l r u d light, L R U D heavy); ~ marks round corners.
my %box = (0x2500 => 'lr', 0x2501 => 'LR', 0x2502 => 'ud', 0x2503 => 'UD', 0x250C => 'rd', 0x2510 => 'ld',
	0x2514 => 'ru', 0x2518 => 'lu', 0x250F => 'RD', 0x2513 => 'LD', 0x2517 => 'RU', 0x251B => 'LU',
	0x251C => 'udr', 0x2524 => 'udl', 0x252C => 'lrd', 0x2534 => 'lru', 0x253C => 'lrud',
	0x2574 => 'l', 0x2575 => 'u', 0x2576 => 'r', 0x2577 => 'd', 0x2578 => 'L', 0x2579 => 'U', 0x257A => 'R', 0x257B => 'D',
	0x256D => '~rd', 0x256E => '~ld', 0x256F => '~lu', 0x2570 => '~ru');
my %ent = (amp => '&', lt => '<', gt => '>', quot => '"', apos => "'");
sub unescape { my $t = shift; $t =~ s/&(#x?[0-9a-fA-F]+|\w+);/
	substr($1, 0, 2) eq '#x' ? chr(hex substr $1, 2) : substr($1, 0, 1) eq '#' ? chr(substr $1, 1) : $ent{$1}/ge; $t }
sub escape { my $t = shift; $t =~ s/&/&amp;/g; $t =~ s/</&lt;/g; $t =~ s/>/&gt;/g; $t }
sub wide { my $c = shift;   # East Asian wide and emoji take two cells, as in the terminal
	return ($c >= 0x1100 && $c <= 0x115F) || ($c >= 0x2E80 && $c <= 0xA4CF) || ($c >= 0xAC00 && $c <= 0xD7A3)
		|| ($c >= 0xF900 && $c <= 0xFAFF) || ($c >= 0xFE30 && $c <= 0xFE4F) || ($c >= 0xFF00 && $c <= 0xFF60)
		|| ($c >= 0xFFE0 && $c <= 0xFFE6) || ($c >= 0x1F300 && $c <= 0x1FAFF) || ($c >= 0x20000 && $c <= 0x3FFFD); }
my (%strokes, @blocks);
sub f { sprintf '%.2f', shift }
# draw(CODE, X, TOP, FILL): adds the vector form of a box-drawing or block character;
# false when the character is left to the font.
sub draw { my ($c, $x, $top, $fill) = @_;
	my ($cx, $cy, $r, $b) = ($x + $cw / 2, $top + $ch / 2, $x + $cw, $top + $ch);
	if (my $arms = $box{$c}) {
		if ($arms =~ s/^~//) {
			my ($ex, $ey) = ($arms =~ /l/ ? $x : $r, $arms =~ /u/ ? $top : $b);
			$strokes{"$fill light"} .= 'M' . f($ex) . ' ' . f($cy) . 'Q' . f($cx) . ' ' . f($cy) . ' ' . f($cx) . ' ' . f($ey);
			return 1;
		}
		for my $arm (split //, $arms) {
			my $wt = $arm =~ /[LRUD]/ ? 'heavy' : 'light';
			my %end = (l => [$x, $cy], r => [$r, $cy], u => [$cx, $top], d => [$cx, $b]);
			my ($ex, $ey) = @{ $end{lc $arm} };
			$strokes{"$fill $wt"} .= 'M' . f($cx) . ' ' . f($cy) . 'L' . f($ex) . ' ' . f($ey);
		}
		return 1;
	}
	my ($bx, $by, $bw, $bh);
	if ($c >= 0x2588 && $c <= 0x258F) { ($bx, $by, $bw, $bh) = ($x, $top, $cw * (0x2590 - $c) / 8, $ch) }   # █ ▉ … ▏
	elsif ($c >= 0x2581 && $c <= 0x2587) { my $hh = $ch * ($c - 0x2580) / 8; ($bx, $by, $bw, $bh) = ($x, $b - $hh, $cw, $hh) }
	elsif ($c == 0x2580) { ($bx, $by, $bw, $bh) = ($x, $top, $cw, $ch / 2) }
	elsif ($c == 0x2590) { ($bx, $by, $bw, $bh) = ($cx, $top, $cw / 2, $ch) }
	else { return 0 }
	my $last = $blocks[-1];   # a bar is one rectangle, not a row of seams
	if ($last && $last->[4] eq $fill && abs($last->[0] + $last->[2] - $bx) < 0.01 && $last->[1] == $by && $last->[3] == $bh) {
		$last->[2] += $bw;
	} else { push @blocks, [$bx, $by, $bw, $bh, $fill] }
	return 1;
}
local $/; my $svg = <STDIN>;
$svg =~ s/<svg width="([\d.]+)" height="([\d.]+)"/<svg width="$1" height="$2" viewBox="0 0 $1 $2"/
	or die "freeze's output has no <svg width height>\n";
$svg =~ s/font-family="[^"]*"/font-family="$fonts"/;
$svg =~ s/ clip-path="url\(#terminalMask\)"//;   # it names no element; some viewers then hide the text
$svg =~ s{<rect fill="([^"]+)" x="([\d.]+)px" y="([\d.]+)px" height="([\d.]+)px" width="([\d.]+)px"/>}{
	my ($col, $n) = (int(($2 - $left) / $freeze_cell + 0.5), int($5 / $freeze_cell));
	sprintf '<rect fill="%s" x="%.2fpx" y="%spx" height="%spx" width="%.2fpx"/>', $1, $left + $col * $cw, $3, $4, $n * $cw
}ge;
$svg =~ s{(<text x="([\d.]+)px" y="([\d.]+)px"[^>]*>)(.*?)</text>}{
	my ($open, $x0, $col, $body) = ($1, $2, 0, $4);
	my ($base, $top) = ($3, $3 - $ch + ($size + $lh) / 5);   # baseline; where freeze puts the row's background
	$body =~ s{<tspan([^>]*)>(.*?)</tspan>}{
		my ($attrs, @chars) = ($1, split //, unescape($2));
		$attrs =~ s/ dx="[^"]*"//;
		my ($fill) = $attrs =~ /fill="([^"]+)"/; $fill //= '#cccccc';
		$attrs .= ' font-weight="bold"' if $fill =~ /[13579bdf]$/i;
		my ($from, @xs) = ($x0 + $col * $cw);
		for my $c (@chars) {
			my $x = $x0 + $col * $cw;
			$c = ' ' if draw(ord $c, $x, $top, $fill);
			push @xs, sprintf '%.1f', $x;
			$col += wide(ord $c) ? 2 : 1;
		}
		my %rules = (underline => $base + 0.2 * $size, 'line-through' => $base - 0.28 * $size);
		if ($attrs =~ s/ text-decoration="([^"]+)"// && $rules{$1}) {
			$strokes{"$fill rule"} .= 'M' . f($from) . ' ' . f($rules{$1}) . 'H' . f($x0 + $col * $cw);
		}
		my $text = join '', @chars;
		$text =~ s/ +$//;
		splice @xs, length $text;
		length $text ? sprintf('<tspan%s x="%s">%s</tspan>', $attrs, join(' ', @xs), escape($text)) : ''
	}ge;
	"$open$body</text>"
}ge;
my $art = join '', map({ sprintf '<rect fill="%s" x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>', $_->[4], @$_[0 .. 3] } @blocks),
	map { my ($fill, $wt) = split / /; sprintf '<path fill="none" stroke="%s" stroke-width="%.2f" stroke-linecap="square" d="%s"/>', $fill, $weight{$wt}, $strokes{$_} } sort keys %strokes;
$svg =~ s{</g>}{$art</g>} or die "freeze's output has no text group\n";
print $svg;
PERL

# shoot NN-NAME: captures the screen with colours and renders it to $WORK/shots/NN-NAME.svg.
shoot() {
	local name=$1
	mkdir -p "$WORK/shots"
	tm capture-pane -e -p -t "$SESSION" >"$WORK/$name.ansi"
	perl "$WORK/normalise.pl" "$COLS" <"$WORK/$name.ansi" >"$WORK/$name.norm"
	"$FREEZE" --language ansi --window --border.radius 8 --padding "$PAD" --background '#1e1e1e' \
		--font.family monospace --font.size "$FONT_SIZE" --line-height "$LINE_HEIGHT" \
		--output "$WORK/$name.freeze.svg" <"$WORK/$name.norm" >/dev/null ||
		die "freeze could not render $name (its message is above)."
	perl "$WORK/place.pl" "$FONT_SIZE" "$LINE_HEIGHT" "$PAD" "$FONTS" <"$WORK/$name.freeze.svg" >"$WORK/shots/$name.svg"
	echo "  $name.svg"
}

# --- the platform ---------------------------------------------------------------------
# A long provisioning delay keeps the service created below REBUILDING for the pictures.
: >"$WORK/sandbox.out"
"$BIN" sandbox --addr 127.0.0.1:0 --seed 1 --provision-delay 10m >"$WORK/sandbox.out" 2>"$WORK/sandbox.err" &
SANDBOX_PID=$!
for ((i = 0; i < 100; i++)); do
	[ "$(wc -l <"$WORK/sandbox.out")" -ge 3 ] && break
	kill -0 "$SANDBOX_PID" 2>/dev/null || break
	sleep 0.1
done
URL=$(sed -n 's/^svcui sandbox listening on //p' "$WORK/sandbox.out")
TOKEN=$(sed -n 's/^admin token: //p' "$WORK/sandbox.out")
if [ -z "$URL" ] || [ -z "$TOKEN" ]; then
	echo "screenshots: svcui sandbox did not print its address and tokens:" >&2
	cat "$WORK/sandbox.out" "$WORK/sandbox.err" >&2
	exit 1
fi

# The token goes to files only (0600), never to argv where ps would show it.
old_umask=$(umask); umask 077
mkdir -p "$WORK/config" "$WORK/state"
printf 'profile: sandbox\nprofiles:\n  sandbox:\n    api_url: %s\n    token: %s\n' "$URL" "$TOKEN" >"$WORK/config/config.yaml"
printf 'Authorization: svcv1 %s\n' "$TOKEN" >"$WORK/auth.header"
umask "$old_umask"
curl -sS -f -o /dev/null -H @"$WORK/auth.header" -H 'Content-Type: application/json' \
	-d '{"service_name":"pg-reporting","service_type":"pg","plan":"startup-4","cloud":"google-europe-north1"}' \
	"$URL/v1/project/acme-prod/service" ||
	die "the sandbox refused to create pg-reporting (POST $URL/v1/project/acme-prod/service)."

# --- the console ----------------------------------------------------------------------
cmd=$(printf '%q ' env -u NO_COLOR -u COLORTERM -u SVCUI_TOKEN -u SVCUI_API_URL -u SVCUI_PROFILE \
	TERM=xterm-256color LANG=C.UTF-8 SVCUI_CONFIG_DIR="$WORK/config" XDG_STATE_HOME="$WORK/state" \
	SVCUI_CLIPBOARD=off "$BIN" --theme dark --log-file "$WORK/svcui.log")
tm new-session -d -s "$SESSION" -x "$COLS" -y "$ROWS" "$cmd; sleep 600"
echo "screenshots: rendering into $OUT"

wait_for projects 'acme-staging'
wait_for projects 'API [0-9]+/[0-9]+'
shoot 01-projects

send 2
wait_for services 'pg-reporting .* REBUILDING for'
wait_for services 'pg-main .*● RUNNING'
shoot 02-services

filter_to "service detail" pg-main
send Enter
wait_for "service detail" 'Password +•+ \(x to reveal\)'
wait_for "service detail" 'URI +postgres://avnadmin:•+@'
cursor_to "service detail" Password
shoot 03-service-detail

send 3
wait_for "users: service picker" 'pg-reporting'
filter_to "users: service picker" pg-main
send Enter
wait_for "users of pg-main" 'pg-main › users'
wait_for "users of pg-main" 'avnadmin'
send c
wait_for "create user form" '┃ Username'
type_text reporting_ro
wait_for "create user form" '> reporting_ro'
send Enter
wait_for "create user form" '┃ Authentication'
send Enter
wait_for "one-time password" 'shown only once'
wait_for "one-time password" 'password: AVNS_'
shoot 04-one-time-password
send Escape
wait_gone "close the one-time password" 'shown only once'
wait_gone "footer message expires" 'Created user reporting_ro'

send 4
wait_for "billing groups" 'Acme Europe'
filter_to "billing groups" 'Acme Europe'
send Enter
wait_for "billing group" 'Invoices \([0-9]+\)'
send i
wait_for "invoices" 'Total incl. VAT'
send m
wait_for "billing chart" 'Totals per month'
wait_for "billing chart" '█ +[0-9,.]+ EUR'
shoot 05-billing-chart

send 5
wait_for "search tab" 'cluster ● green'
wait_for "search tab" '▸ Editor'
wait_for "search tab" 'logs-app'
# A new request below the editor's first one; F5 runs the request under the cursor.
send C-End Enter Enter
type_text 'GET /logs-app/_search'; send Enter
type_text '{'; send Enter
type_text '  "query": {"match": {"message": "payment declined"}},'; send Enter
type_text '  "highlight": {"fields": {"message": {}}}'; send Enter
type_text '}'
wait_for "search request" '"highlight": \{"fields"'
send F5
wait_for "search results" 'Results ● 200 · hits [0-9]'
wait_for "search results" 'Payment authorization declined'
send Tab
wait_for "search results" '▸ Results'
shoot 06-search-results

send Enter
wait_for "document view" 'Hit 1 of [0-9]+'
wait_for "document view" 'message +Payment'
cursor_to "document view" message
shoot 07-document

# The log reader: all of logs-app over time, the histogram and its time axis above the hits
# (enter on an index runs its search and focuses the hits), then the tail, with a document
# written 3 s in the past as a log shipper would deliver it: it appears among the others.
send Escape
wait_for "back to the results" '▸ Results'
focus_pane Indices
send Enter # logs-app, the first index
wait_for "log reader" 'max [0-9,]+/'
wait_for "log reader" '▲ [A-Z][a-z][a-z] [0-9]+'
wait_for "log reader" '▸ Results'
shoot 08-histogram
send t
wait_for "live tail" '● LIVE'
old_umask=$(umask); umask 077
curl -sS -f -H @"$WORK/auth.header" "$URL/v1/project/acme-prod/service/opensearch-logs/connection_info" >"$WORK/os.json" ||
	die "the sandbox gave no connection info for opensearch-logs."
perl -MJSON::PP -e '
	local $/; my $ci = decode_json(<STDIN>);
	open my $ca, ">", "$ARGV[0]/os-ca.pem" or die; print $ca $ci->{ca_cert};
	open my $k, ">", "$ARGV[0]/os.curlrc" or die; print $k "user = \"$ci->{user}:$ci->{password}\"\n";
	print "https://$ci->{host}:$ci->{port}\n";' "$WORK" <"$WORK/os.json" >"$WORK/os.url"
umask "$old_umask"
late=$(perl -MPOSIX=strftime -e 'print strftime("%Y-%m-%dT%H:%M:%S.000Z", gmtime(time - 3))')
sleep 1.5 # a poll or two first: the document then arrives after newer ones are shown
curl -sS -f -o /dev/null --cacert "$WORK/os-ca.pem" -K "$WORK/os.curlrc" -H 'Content-Type: application/json' \
	-d '{"@timestamp":"'"$late"'","level":"WARN","host":"shipper-eu-1","message":"Delivered 3 s late by the log shipper"}' \
	"$(cat "$WORK/os.url")/logs-app/_doc/late-1?refresh=true" || die "the sandbox refused the late document."
wait_for "late document in the tail" '1 late'
wait_for "late document in the tail" 'Delivered 3 s late'
shoot 09-live-tail

# On a jump host: a locale without UTF-8 and TERM=screen (8/16 colours). The same console
# restarted in the pane; ASCII glyphs and borders, attributes and basic colours.
jump=$(printf '%q ' env -u NO_COLOR -u COLORTERM -u SVCUI_TOKEN -u SVCUI_API_URL -u SVCUI_PROFILE \
	-u LC_ALL -u LC_CTYPE TERM=screen LANG=C SVCUI_CONFIG_DIR="$WORK/config" XDG_STATE_HOME="$WORK/state" \
	SVCUI_CLIPBOARD=off "$BIN" --theme dark --log-file "$WORK/svcui-jump.log")
tm respawn-pane -k -t "$SESSION" "$jump; sleep 600"
wait_for "jump host" 'acme-staging'
send 2
wait_for "jump host services" 'pg-reporting .* ~ REBUILDING for'
wait_for "jump host services" 'pg-main .*\* RUNNING'
shoot 10-jump-host-ascii

# Replace the previous set only now that every shot succeeded.
mkdir -p "$OUT"
rm -f "$OUT"/[0-9][0-9]-*.svg
cp "$WORK"/shots/*.svg "$OUT"/
echo "screenshots: $(ls "$WORK"/shots | wc -l) pictures in $OUT"
