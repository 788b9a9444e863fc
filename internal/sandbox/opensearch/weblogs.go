package opensearch

//go:generate go run ../../../scripts/gen-sample-logs -o ../../../assets/sample-logs.ndjson

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
)

// The sample web access logs: a shop's front end over thirty days, with daily and weekly
// rhythm, an outage of the API behind it and a vulnerability scan. They fill the demo's logs-web
// index (relative to the clock) and assets/sample-logs.ndjson (relative to SampleLogsEnd).
//
// Everything is drawn with integer arithmetic from a PCG stream, so the same seed gives the same
// bytes on every platform (floating-point steps could round differently where the compiler
// fuses a multiply and an add).

// The committed asset is WriteSampleLogs(w, SampleLogsSeed, SampleLogsCount, SampleLogsEnd).
const (
	SampleLogsSeed  = 2026
	SampleLogsCount = 5000
)

// SampleLogsEnd is the instant the asset's thirty days end at.
var SampleLogsEnd = time.Date(2026, time.January, 31, 0, 0, 0, 0, time.UTC)

// WriteSampleLogs writes n web access-log documents as NDJSON, one plain document per line (the
// form the console's bulk loader takes), spread over the thirty days before end, in time order.
func WriteSampleLogs(w io.Writer, seed uint64, n int, end time.Time) error {
	bw := bufio.NewWriter(w)
	for _, e := range webLogs(rand.New(rand.NewPCG(seed, webLogStream)), end, n) {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// webLogStream separates the web logs' random stream from the other demo data's.
const webLogStream = 0x3eb10c5

// webLog is one access-log entry; the field order is the JSON order.
type webLog struct {
	Timestamp   string  `json:"@timestamp"`
	Level       string  `json:"level"`
	Message     string  `json:"message"`
	ClientIP    string  `json:"client_ip"`
	Method      string  `json:"method"`
	Path        string  `json:"path"`
	Status      int     `json:"status"`
	Bytes       int     `json:"bytes"`
	LatencyMS   float64 `json:"latency_ms"`
	UserAgent   string  `json:"user_agent"`
	Referrer    string  `json:"referrer"`
	HTTPVersion string  `json:"http_version"`
	Host        string  `json:"host"`
	Region      string  `json:"region"`
	Country     string  `json:"country"`
	RequestID   string  `json:"request_id"`
}

// source is the entry's parsed source (see sourceOf).
func (e webLog) source() map[string]any {
	return map[string]any{
		"@timestamp": e.Timestamp, "level": e.Level, "message": e.Message, "client_ip": e.ClientIP,
		"method": e.Method, "path": e.Path, "status": sourceValue(e.Status), "bytes": sourceValue(e.Bytes),
		"latency_ms": sourceValue(e.LatencyMS), "user_agent": e.UserAgent, "referrer": e.Referrer,
		"http_version": e.HTTPVersion, "host": e.Host, "region": e.Region, "country": e.Country,
		"request_id": e.RequestID,
	}
}

// demoWebIndex is the mapping of logs-web (the logs-* template adds its own fields first).
const demoWebIndex = `{
  "settings": {"number_of_shards": 1, "number_of_replicas": 0},
  "mappings": {"properties": {
    "@timestamp": {"type": "date"},
    "level": {"type": "keyword"},
    "message": {"type": "text"},
    "client_ip": {"type": "ip"},
    "method": {"type": "keyword"},
    "path": {"type": "keyword"},
    "status": {"type": "long"},
    "bytes": {"type": "long"},
    "latency_ms": {"type": "float"},
    "user_agent": {"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}},
    "referrer": {"type": "keyword"},
    "http_version": {"type": "keyword"},
    "host": {"type": "keyword"},
    "region": {"type": "keyword"},
    "country": {"type": "keyword"},
    "request_id": {"type": "keyword"}
  }}
}`

type webRoute struct {
	method, path string // {id}, {hash}, {query}, {user} are filled in
	weight       int
	latencyUS    int    // typical time to answer, microseconds
	bytes        [2]int // response size range
	static       bool   // cacheable: often 304
	api          bool   // served by the API the outage takes down
}

var webRoutes = []webRoute{
	{"GET", "/", 120, 28000, [2]int{18000, 42000}, false, false},
	{"GET", "/products", 100, 45000, [2]int{30000, 90000}, false, true},
	{"GET", "/products/{id}", 180, 38000, [2]int{12000, 36000}, false, true},
	{"GET", "/search?q={query}", 90, 85000, [2]int{8000, 60000}, false, true},
	{"GET", "/static/js/app.{hash}.js", 80, 3000, [2]int{240000, 240000}, true, false},
	{"GET", "/static/css/main.{hash}.css", 50, 2500, [2]int{48000, 48000}, true, false},
	{"GET", "/images/products/{id}.webp", 100, 6000, [2]int{20000, 140000}, true, false},
	{"GET", "/api/v1/cart", 60, 22000, [2]int{400, 4000}, false, true},
	{"POST", "/api/v1/cart/items", 40, 55000, [2]int{300, 1200}, false, true},
	{"DELETE", "/api/v1/cart/items/{id}", 8, 30000, [2]int{0, 0}, false, true},
	{"POST", "/api/v1/checkout", 18, 240000, [2]int{600, 2400}, false, true},
	{"POST", "/api/v1/login", 20, 120000, [2]int{200, 900}, false, true},
	{"GET", "/api/v1/recommendations?user={user}", 40, 65000, [2]int{1500, 9000}, false, true},
	{"PUT", "/api/v1/account", 5, 70000, [2]int{300, 800}, false, true},
	{"GET", "/favicon.ico", 20, 1500, [2]int{4286, 4286}, true, false},
	{"GET", "/robots.txt", 6, 1200, [2]int{120, 120}, true, false},
}

// Browsers and clients, most common first.
var webAgents = []struct {
	ua     string
	weight int
}{
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", 30},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", 20},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", 12},
	{"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", 14},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", 8},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", 6},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 4},
	{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", 2},
	{"okhttp/4.12.0", 3},
	{"curl/8.5.0", 1},
}

var (
	webCountries = []string{"US", "DE", "GB", "FR", "NL", "SE", "ES", "IT", "PL", "CA", "BR", "JP", "AU", "IN"}
	webHosts     = []struct{ host, region string }{{"web-1", "eu-west-1"}, {"web-2", "eu-west-1"}, {"web-3", "us-east-1"}, {"web-4", "us-east-1"}}
	webReferrers = []string{"-", "-", "-", "https://shop.example.com/", "https://shop.example.com/products",
		"https://www.google.com/", "https://www.bing.com/", "https://duckduckgo.com/", "https://t.co/"}
	// Hourly traffic (UTC), in percent of the busiest hour: Europe's day, then America's evening.
	webHourly = [24]int{22, 16, 12, 10, 10, 12, 20, 34, 52, 66, 74, 80, 84, 86, 88, 92, 96, 100, 98, 90, 76, 60, 44, 30}
	// Weekly traffic by time.Weekday, in percent: a quieter Saturday, a busy Sunday evening.
	webDaily = [7]int{88, 100, 98, 96, 94, 90, 72}
	// What a vulnerability scanner probes.
	webScanPaths = []string{"/wp-login.php", "/.env", "/admin", "/phpmyadmin/", "/.git/config", "/xmlrpc.php",
		"/wp-admin/setup-config.php", "/config.json", "/server-status", "/actuator/env", "/cgi-bin/luci", "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php"}
)

// webGen draws the entries of one generation.
type webGen struct {
	rng   *rand.Rand
	start time.Time
	span  int64 // milliseconds
}

// webLogs generates n entries over the thirty days before end, sorted by time: about 94% regular
// traffic, 3% the outage (the API answers 502/503/504 for forty minutes nine days before end)
// and 3% a scanner walking through admin paths one night seventeen days before end.
func webLogs(rng *rand.Rand, end time.Time, n int) []webLog {
	end = end.UTC().Truncate(time.Second)
	g := &webGen{rng: rng, start: end.Add(-30 * 24 * time.Hour), span: int64(30 * 24 * time.Hour / time.Millisecond)}
	outageAt := end.Add(-9 * 24 * time.Hour).Truncate(24 * time.Hour).Add(14*time.Hour + 10*time.Minute)
	scanAt := end.Add(-17 * 24 * time.Hour).Truncate(24 * time.Hour).Add(3*time.Hour + 12*time.Minute)
	scanner := fmt.Sprintf("198.51.100.%d", 10+rng.IntN(200))
	outage, scan := n*3/100, n*3/100
	out := make([]webLog, 0, n)
	for len(out) < n-outage-scan {
		ms := rng.Int64N(g.span)
		t := g.start.Add(time.Duration(ms) * time.Millisecond)
		if rng.IntN(10000) >= webHourly[t.Hour()]*webDaily[t.Weekday()] {
			continue
		}
		out = append(out, g.entry(t, false, ""))
	}
	for i := 0; i < outage; i++ {
		t := outageAt.Add(time.Duration(rng.Int64N(int64(40*time.Minute/time.Millisecond))) * time.Millisecond)
		out = append(out, g.entry(t, true, ""))
	}
	for i := 0; i < scan; i++ {
		t := scanAt.Add(time.Duration(rng.Int64N(int64(20*time.Minute/time.Millisecond))) * time.Millisecond)
		out = append(out, g.entry(t, false, scanner))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp < out[j].Timestamp })
	return out
}

var webRouteWeights, webAgentWeights = func() ([]int, []int) {
	var r, a []int
	for _, x := range webRoutes {
		r = append(r, x.weight)
	}
	for _, x := range webAgents {
		a = append(a, x.weight)
	}
	return r, a
}()

func (g *webGen) pickRoute() webRoute { return webRoutes[weighted(g.rng, webRouteWeights)] }

func (g *webGen) agent() string { return webAgents[weighted(g.rng, webAgentWeights)].ua }

// entry draws one request at t; during the outage API calls fail, a scanner probes admin paths.
func (g *webGen) entry(t time.Time, outage bool, scanner string) webLog {
	rng := g.rng
	r := g.pickRoute()
	if outage {
		for !r.api {
			r = g.pickRoute()
		}
	}
	// Client: a few heavy visitors and a long tail, each with a fixed country.
	visitor := rng.IntN(400) * rng.IntN(400) / 400
	ip := fmt.Sprintf("203.0.113.%d", 1+visitor%254)
	if visitor >= 254 {
		ip = fmt.Sprintf("192.0.2.%d", 1+visitor%254)
	}
	country := webCountries[visitor%len(webCountries)]
	ua := g.agent()
	path := fillPlaceholders(r.path,
		"{id}", fmt.Sprint(1000+rng.IntN(4000)),
		"{hash}", []string{"3f9a1c2e", "b71d0e44"}[rng.IntN(2)],
		"{query}", strings.ReplaceAll(pick(rng, demoQueries), " ", "+"),
		"{user}", fmt.Sprintf("u-%04d", rng.IntN(1000)+1000),
	)
	method := r.method
	status, bytes := 200, r.bytes[0]+rng.IntN(r.bytes[1]-r.bytes[0]+1)
	latency := r.latencyUS * (50 + rng.IntN(100)) / 100
	if rng.IntN(25) == 0 { // a slow tail: GC pauses, cold caches
		latency *= 3 + rng.IntN(12)
	}
	switch {
	case scanner != "":
		ip, country, ua = scanner, "NL", "Mozilla/5.0 (X11; Linux x86_64) python-requests/2.31.0"
		method, path = "GET", webScanPaths[rng.IntN(len(webScanPaths))]
		status, bytes, latency = 404, 548, 800+rng.IntN(2400)
		if rng.IntN(6) == 0 {
			status, bytes = 403, 162
		}
	case outage:
		status = []int{502, 502, 503, 504}[rng.IntN(4)]
		bytes = 552
		latency = 1000 + rng.IntN(59000)
		if status == 504 {
			latency = 60000000 + rng.IntN(400000)
		} else {
			latency *= 100
		}
	default:
		status, bytes, latency = g.regularOutcome(r, method, bytes, latency)
	}
	if method == "DELETE" && status == 200 {
		status, bytes = 204, 0
	}
	h := webHosts[rng.IntN(len(webHosts))]
	proto := []string{"HTTP/1.1", "HTTP/2.0", "HTTP/2.0"}[rng.IntN(3)]
	ref := pick(rng, webReferrers)
	level := "INFO"
	switch {
	case status >= 500:
		level = "ERROR"
	case status >= 400:
		level = "WARN"
	}
	latencyMS := float64(latency/100) / 10 // 0.1 ms resolution, one correctly rounded division
	ts := t.UTC()
	msg := fmt.Sprintf(`%s - - [%s] "%s %s %s" %d %d "%s" "%s" %s`, ip, ts.Format("02/Jan/2006:15:04:05 -0700"),
		method, path, proto, status, bytes, ref, ua, fmt.Sprintf("%d.%03d", latency/1000000, latency/1000%1000))
	return webLog{
		Timestamp: ts.Format(isoMillis), Level: level, Message: msg, ClientIP: ip, Method: method, Path: path,
		Status: status, Bytes: bytes, LatencyMS: latencyMS, UserAgent: ua, Referrer: ref, HTTPVersion: proto,
		Host: h.host, Region: h.region, Country: country, RequestID: fmt.Sprintf("%016x", rng.Uint64()),
	}
}

// regularOutcome is the status of ordinary traffic: mostly 200, 304 for cached assets, a few
// missing products, failed logins, rate limits and rare server errors.
func (g *webGen) regularOutcome(r webRoute, method string, bytes, latency int) (int, int, int) {
	n := g.rng.IntN(1000)
	switch {
	case r.static && n < 300:
		return 304, 0, latency / 2
	case n < 3:
		return 500, 612, latency * 4
	case n < 6:
		return 429, 98, latency / 10
	}
	switch r.path {
	case "/products/{id}":
		if n < 40 {
			return 404, 1834, latency / 2
		}
	case "/api/v1/login":
		if n < 160 {
			return 401, 87, latency
		}
	case "/api/v1/checkout":
		if n < 40 {
			return 409, 140, latency
		}
		return 201, bytes, latency
	case "/api/v1/cart/items":
		if n < 30 {
			return 400, 112, latency / 3
		}
		return 201, bytes, latency
	case "/":
		if n < 20 {
			return 301, 162, latency / 10
		}
	}
	if method == "PUT" && n < 50 {
		return 422, 230, latency
	}
	return 200, bytes, latency
}

// demoWebLogs is the size of the demo's logs-web index.
const demoWebLogs = 4000

// loadDemoWeb creates logs-web with the web logs of the thirty days before now, and the alias
// "logs" over logs-app and logs-web (unless an index already has that name). The caller holds
// the write lock.
func (c *Cluster) loadDemoWeb(seed uint64, now time.Time) error {
	body := map[string]any{}
	if err := json.Unmarshal([]byte(demoWebIndex), &body); err != nil {
		return fmt.Errorf("demo web logs: %w", err)
	}
	if _, aerr := c.createIndex("logs-web", index.ToNumbers(body).(map[string]any)); aerr != nil {
		return fmt.Errorf("demo web logs: %s", aerr.Reason)
	}
	for i, e := range webLogs(rand.New(rand.NewPCG(seed, webLogStream)), now, demoWebLogs) {
		if err := c.putDemoDoc("logs-web", fmt.Sprintf("web-%05d", i+1), e, e.source()); err != nil {
			return fmt.Errorf("demo web log %d: %w", i, err)
		}
	}
	if _, taken := c.indices["logs"]; !taken {
		for _, name := range []string{"logs-app", "logs-web"} {
			if ix := c.indices[name]; ix != nil {
				setAlias(ix, "logs", &index.AliasDef{})
			}
		}
	}
	return nil
}
