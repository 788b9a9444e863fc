package opensearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
)

// LoadDemo fills the cluster with demo data, deterministic from seed and relative to the clock:
// logs-app (~5,000 log lines over five weeks) created through the logs-template template,
// logs-web (4,000 web access logs over the last thirty days, see weblogs.go), the alias "logs"
// over both, products (~200 products), the logs-retention ISM policy and the logs_reader role.
// Existing demo objects are replaced; anything else is left alone.
func (c *Cluster) LoadDemo(seed int64) error {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	now := c.now().UTC()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, name := range []string{"logs-app", "logs-web", "products"} {
		delete(c.indices, name)
	}
	tmplBody := map[string]any{}
	if err := json.Unmarshal([]byte(demoLogsTemplate), &tmplBody); err != nil {
		return fmt.Errorf("demo template: %w", err)
	}
	t, aerr := parseTemplate("logs-template", index.ToNumbers(tmplBody).(map[string]any))
	if aerr != nil {
		return fmt.Errorf("demo template: %s", aerr.Reason)
	}
	c.templates["logs-template"] = t

	for i, doc := range demoLogs(rng, now, 5000) {
		if err := c.putDemoDoc("logs-app", fmt.Sprintf("log-%05d", i+1), doc, doc.source()); err != nil {
			return fmt.Errorf("demo log %d: %w", i, err)
		}
	}
	if err := c.loadDemoWeb(uint64(seed), now); err != nil {
		return err
	}
	prodBody := map[string]any{}
	if err := json.Unmarshal([]byte(demoProductsIndex), &prodBody); err != nil {
		return fmt.Errorf("demo products: %w", err)
	}
	if _, aerr := c.createIndex("products", index.ToNumbers(prodBody).(map[string]any)); aerr != nil {
		return fmt.Errorf("demo products: %s", aerr.Reason)
	}
	for i, doc := range demoProducts(rng, now, 200) {
		if err := c.putDemoDoc("products", fmt.Sprintf("p-%04d", i+1), doc, sourceOf(doc)); err != nil {
			return fmt.Errorf("demo product %d: %w", i, err)
		}
	}

	var pol map[string]any
	if err := json.Unmarshal([]byte(demoPolicy), &pol); err != nil {
		return fmt.Errorf("demo policy: %w", err)
	}
	inner, aerr := validatePolicy(index.ToNumbers(pol).(map[string]any))
	if aerr != nil {
		return fmt.Errorf("demo policy: %s", aerr.Reason)
	}
	p := c.policies["logs-retention"]
	if p == nil {
		p = &ismPolicy{id: "logs-retention", seqNo: c.nextPolicySeq()}
		c.policies["logs-retention"] = p
	}
	p.version++
	p.policy = inner
	p.lastUpdated = now.UnixMilli()

	var roleBody map[string]any
	if err := json.Unmarshal([]byte(demoRole), &roleBody); err != nil {
		return fmt.Errorf("demo role: %w", err)
	}
	c.roles["logs_reader"] = &role{body: roleBody}
	return nil
}

// putDemoDoc indexes one generated document: its source is doc as json.Marshal writes it,
// and src is that source parsed (sourceOf), built from the values rather than parsed back
// from the bytes, which was a quarter of a demo load.
func (c *Cluster) putDemoDoc(indexName, id string, doc any, src map[string]any) error {
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if _, _, aerr := c.indexParsed(indexName, id, raw, src, false); aerr != nil {
		return errors.New(aerr.Reason)
	}
	return nil
}

// sourceOf is what parseSource reads from json.Marshal(doc) for the values the demo
// generators use: strings, booleans, ints, float64s, []string and nested maps, with numbers
// as json.Number spelled as json.Marshal spells them.
func sourceOf(doc map[string]any) map[string]any {
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		out[k] = sourceValue(v)
	}
	return out
}

func sourceValue(v any) any {
	switch t := v.(type) {
	case int:
		return json.Number(strconv.Itoa(t))
	case float64:
		return jsonNumber(t)
	case []string:
		l := make([]any, len(t))
		for i, s := range t {
			l[i] = s
		}
		return l
	case map[string]any:
		return sourceOf(t)
	}
	return v // string, bool, nil
}

// jsonNumber is f as json.Marshal writes it.
func jsonNumber(f float64) json.Number {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		b, _ := json.Marshal(f) // exponent form, which json tidies; not in the demo data
		return json.Number(b)
	}
	return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
}

const demoLogsTemplate = `{
  "index_patterns": ["logs-*"],
  "priority": 100,
  "template": {
    "settings": {"number_of_shards": 1, "number_of_replicas": 1},
    "mappings": {"properties": {
      "@timestamp": {"type": "date"},
      "level": {"type": "keyword"},
      "service": {"type": "keyword"},
      "host": {"type": "keyword"},
      "status": {"type": "long"},
      "latency_ms": {"type": "float"},
      "message": {"type": "text"},
      "user_id": {"type": "keyword"},
      "region": {"type": "keyword"},
      "trace_id": {"type": "keyword"}
    }}
  },
  "_meta": {"description": "Application logs"}
}`

const demoProductsIndex = `{
  "settings": {"number_of_shards": 1, "number_of_replicas": 0},
  "mappings": {"properties": {
    "name": {"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}},
    "category": {"type": "keyword"},
    "brand": {"type": "keyword"},
    "price": {"type": "float"},
    "in_stock": {"type": "boolean"},
    "stock": {"type": "integer"},
    "rating": {"type": "float"},
    "tags": {"type": "keyword"},
    "description": {"type": "text"},
    "created": {"type": "date"}
  }}
}`

const demoPolicy = `{"policy": {
  "description": "Keep application logs hot for 30 days, then delete them.",
  "default_state": "hot",
  "states": [
    {"name": "hot", "actions": [], "transitions": [{"state_name": "delete", "conditions": {"min_index_age": "30d"}}]},
    {"name": "delete", "actions": [{"delete": {}}], "transitions": []}
  ],
  "ism_template": [{"index_patterns": ["logs-*"], "priority": 100}]
}}`

const demoRole = `{
  "description": "Read-only access to application logs",
  "cluster_permissions": ["cluster_composite_ops_ro"],
  "index_permissions": [{"index_patterns": ["logs-*"], "allowed_actions": ["read", "indices:admin/mappings/get"]}],
  "tenant_permissions": []
}`

type demoService struct {
	name    string
	weight  int
	latency float64 // typical milliseconds
	info    []string
	warn    []string
	errs    []string
	debug   []string
}

var demoServices = []demoService{
	{"checkout", 22, 120,
		[]string{"Order {order} placed by user {user} total ${amount}", "Cart {cart} checked out with {n} items", "Shipping quote computed for order {order} to {country}", "Promo code {promo} applied to cart {cart}"},
		[]string{"Cart {cart} total recalculated after stale price for {sku}", "Slow response from payments for order {order} after {ms}ms", "Retrying inventory reservation for order {order}"},
		[]string{"Order {order} failed: payment service unavailable", "Timeout reserving stock for order {order} after {ms}ms", "Checkout aborted for user {user}: address validation failed"},
		[]string{"Cart {cart} loaded from cache", "Tax rules for {country} resolved in {ms}ms"}},
	{"payments", 16, 180,
		[]string{"Payment authorized for order {order} amount ${amount}", "Refund issued for order {order} amount ${amount}", "Card tokenized for user {user}"},
		[]string{"Payment authorization declined for card ending {card}: insufficient funds", "3-D Secure challenge required for order {order}", "Fraud score {score} above review threshold for order {order}"},
		[]string{"Payment gateway timeout for order {order} after {ms}ms", "Capture failed for order {order}: upstream returned 502", "Webhook signature verification failed for provider stripe"},
		[]string{"Gateway connection pool size {n}", "Idempotency key {cart} reused"}},
	{"search-api", 24, 45,
		[]string{"Search query '{query}' returned {n} results in {ms}ms", "Autocomplete for '{query}' served from cache", "Facet counts computed for category {category}"},
		[]string{"Slow search query '{query}' took {ms}ms", "Search query '{query}' returned no results", "Result window capped for query '{query}'"},
		[]string{"Search cluster unreachable: connection refused", "Query parsing failed for '{query}': unbalanced quotes", "Index shard failure while searching for '{query}'"},
		[]string{"Rewrote query '{query}' with synonyms", "Cache hit ratio {score}%"}},
	{"auth", 18, 30,
		[]string{"User {user} logged in from {country}", "Token refreshed for user {user}", "User {user} logged out", "Password changed for user {user}"},
		[]string{"Failed login attempt for user {user} from {ip}", "Rate limit reached for client {ip}", "Token for user {user} expires in {n} minutes"},
		[]string{"Token refresh failed for user {user}: signature expired", "LDAP connection lost while authenticating user {user}", "Session store unavailable: too many connections"},
		[]string{"JWKS refreshed, {n} keys loaded", "Session {cart} extended"}},
	{"inventory", 12, 70,
		[]string{"Stock level for {sku} updated to {n}", "Reservation {cart} released for order {order}", "Warehouse sync completed: {n} items"},
		[]string{"Stock level for {sku} dropped below threshold ({n} left)", "Warehouse sync lagging by {n} minutes", "Reservation {cart} expired before checkout"},
		[]string{"Warehouse sync failed: supplier feed returned malformed data", "Deadlock detected while updating stock for {sku}", "Inventory database connection timeout after {ms}ms"},
		[]string{"Reservation cache warmed with {n} entries"}},
	{"notifications", 8, 90,
		[]string{"Order confirmation email sent to user {user}", "Push notification delivered to {n} devices", "Shipping update sent for order {order}"},
		[]string{"Email to user {user} deferred: mailbox full", "SMS provider throttling, {n} messages queued"},
		[]string{"Email delivery failed for user {user}: SMTP 554 rejected", "Push notification service returned 503"},
		[]string{"Template order-confirmation rendered in {ms}ms"}},
}

var (
	demoRegions    = []string{"eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-southeast-1"}
	demoRegionW    = []int{30, 15, 30, 15, 10}
	demoCountries  = []string{"DE", "FR", "GB", "US", "NL", "SE", "ES", "IT", "JP", "AU", "CA", "BR"}
	demoQueries    = []string{"blue running shoes", "wireless headphones", "coffee grinder", "yoga mat", "usb-c charger", "winter jacket", "standing desk", "kids bike", "noise cancelling", "cast iron pan", "smart watch", "hiking boots"}
	demoCategories = []string{"Electronics", "Books", "Home & Kitchen", "Sports", "Toys", "Clothing", "Beauty"}
	demoPromos     = []string{"WELCOME10", "SPRING20", "FREESHIP", "VIP15"}
)

func pick[T any](rng *rand.Rand, l []T) T { return l[rng.IntN(len(l))] }

func weighted(rng *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := rng.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

func fillTemplate(rng *rand.Rand, tpl string) string {
	// Every value is drawn, used or not, in this order: the random stream (and so the demo
	// data of a seed) depends on it.
	return fillPlaceholders(tpl,
		"{order}", fmt.Sprintf("ORD-%06d", rng.IntN(900000)+100000),
		"{user}", fmt.Sprintf("u-%04d", rng.IntN(1000)+1000),
		"{amount}", fmt.Sprintf("%.2f", 5+rng.Float64()*495),
		"{cart}", fmt.Sprintf("c-%x", rng.Uint32()),
		"{n}", fmt.Sprint(rng.IntN(120)+1),
		"{country}", pick(rng, demoCountries),
		"{promo}", pick(rng, demoPromos),
		"{sku}", fmt.Sprintf("SKU-%05d", rng.IntN(90000)+10000),
		"{ms}", fmt.Sprint(rng.IntN(4800)+200),
		"{card}", fmt.Sprintf("%04d", rng.IntN(10000)),
		"{score}", fmt.Sprint(rng.IntN(60)+40),
		"{query}", pick(rng, demoQueries),
		"{category}", pick(rng, demoCategories),
		"{ip}", fmt.Sprintf("203.0.113.%d", rng.IntN(254)+1),
	)
}

// fillPlaceholders replaces each {name} of tpl as strings.NewReplacer(oldnew...).Replace
// would (leftmost first; at one position, the first pair that matches), for placeholders
// that start with '{'. A Replacer built per document was a sixth of a demo load's
// allocations.
func fillPlaceholders(tpl string, oldnew ...string) string {
	i := strings.IndexByte(tpl, '{')
	if i < 0 {
		return tpl
	}
	var b strings.Builder
	b.Grow(len(tpl) + 32)
	b.WriteString(tpl[:i])
	for i < len(tpl) {
		if tpl[i] == '{' {
			if k := placeholderAt(tpl[i:], oldnew); k >= 0 {
				b.WriteString(oldnew[k+1])
				i += len(oldnew[k])
				continue
			}
		}
		b.WriteByte(tpl[i])
		i++
	}
	return b.String()
}

// placeholderAt is the index in oldnew of the first placeholder s starts with, -1 for none.
func placeholderAt(s string, oldnew []string) int {
	for k := 0; k+1 < len(oldnew); k += 2 {
		if strings.HasPrefix(s, oldnew[k]) {
			return k
		}
	}
	return -1
}

// appLog is one application log line of logs-app. The fields are in the order of their
// names, the order json.Marshal gave the map these documents were before: the same bytes,
// without sorting a map's keys per document.
type appLog struct {
	Timestamp string  `json:"@timestamp"`
	Host      string  `json:"host"`
	LatencyMS float64 `json:"latency_ms"`
	Level     string  `json:"level"`
	Message   string  `json:"message"`
	Region    string  `json:"region"`
	Service   string  `json:"service"`
	Status    int     `json:"status"`
	TraceID   string  `json:"trace_id"`
	UserID    string  `json:"user_id"`
}

// source is the line's parsed source (see sourceOf).
func (l appLog) source() map[string]any {
	return map[string]any{
		"@timestamp": l.Timestamp, "host": l.Host, "latency_ms": sourceValue(l.LatencyMS), "level": l.Level,
		"message": l.Message, "region": l.Region, "service": l.Service, "status": sourceValue(l.Status),
		"trace_id": l.TraceID, "user_id": l.UserID,
	}
}

func demoLogs(rng *rand.Rand, now time.Time, n int) []appLog {
	weights := make([]int, len(demoServices))
	for i, s := range demoServices {
		weights[i] = s.weight
	}
	span := 35 * 24 * time.Hour
	start := now.Add(-span)
	out := make([]appLog, 0, n)
	for len(out) < n {
		// More traffic during European and American daytime.
		ts := start.Add(time.Duration(rng.Int64N(int64(span))))
		hour := ts.Hour()
		if (hour < 6 || hour > 22) && rng.IntN(3) > 0 {
			continue
		}
		svc := demoServices[weighted(rng, weights)]
		level := []string{"INFO", "DEBUG", "WARN", "ERROR"}[weighted(rng, []int{70, 12, 12, 6})]
		var msg string
		var status int
		latency := svc.latency * math.Exp(rng.NormFloat64()*0.5)
		switch level {
		case "INFO":
			msg = fillTemplate(rng, pick(rng, svc.info))
			status = []int{200, 200, 200, 201, 204, 304}[rng.IntN(6)]
		case "DEBUG":
			msg = fillTemplate(rng, pick(rng, svc.debug))
			status = 200
		case "WARN":
			msg = fillTemplate(rng, pick(rng, svc.warn))
			status = []int{400, 401, 404, 408, 429}[rng.IntN(5)]
			latency *= 2
		default:
			msg = fillTemplate(rng, pick(rng, svc.errs))
			status = []int{500, 502, 503, 504}[rng.IntN(4)]
			latency *= 4
		}
		region := demoRegions[weighted(rng, demoRegionW)]
		out = append(out, appLog{
			Timestamp: ts.UTC().Format("2006-01-02T15:04:05.000Z"),
			Level:     level,
			Service:   svc.name,
			Host:      fmt.Sprintf("%s-%s-%d", svc.name, region[:2], rng.IntN(4)+1),
			Status:    status,
			LatencyMS: math.Round(latency*10) / 10,
			Message:   msg,
			UserID:    fmt.Sprintf("u-%04d", rng.IntN(1000)+1000),
			Region:    region,
			TraceID:   fmt.Sprintf("%016x", rng.Uint64()),
		})
	}
	return out
}

type demoCategory struct {
	name    string
	brands  []string
	nouns   []string
	price   [2]float64
	tags    []string
	feature []string
}

var demoCatalog = []demoCategory{
	{"Electronics", []string{"Voltix", "Nordsound", "Pixelon", "Amperia"}, []string{"Wireless Headphones", "Bluetooth Speaker", "Smart Watch", "USB-C Charger", "Noise Cancelling Earbuds", "4K Webcam", "Mechanical Keyboard"}, [2]float64{19, 399},
		[]string{"wireless", "bluetooth", "usb-c", "portable", "smart"}, []string{"up to 30 hours of battery life", "fast charging over USB-C", "active noise cancellation", "a water-resistant design", "low-latency Bluetooth 5.3"}},
	{"Books", []string{"Harbor Press", "Lantern Books", "Quill & Co"}, []string{"Cookbook", "Mystery Novel", "Science Fiction Anthology", "Travel Guide", "Programming Handbook", "Children's Picture Book"}, [2]float64{8, 49},
		[]string{"bestseller", "paperback", "hardcover", "new-release"}, []string{"over 300 pages of tested recipes", "a gripping twist in the final chapter", "full-colour illustrations", "practical examples on every page"}},
	{"Home & Kitchen", []string{"Casa Verde", "Ironleaf", "Brewmaster"}, []string{"Coffee Grinder", "Cast Iron Pan", "Chef's Knife", "French Press", "Air Fryer", "Linen Duvet Cover"}, [2]float64{15, 249},
		[]string{"kitchen", "dishwasher-safe", "eco", "gift"}, []string{"pre-seasoned cast iron", "a burr grinder with 40 settings", "stainless steel construction", "organic cotton"}},
	{"Sports", []string{"Trailforge", "Summit Gear", "Aerofit"}, []string{"Yoga Mat", "Running Shoes", "Hiking Boots", "Water Bottle", "Resistance Bands", "Cycling Helmet"}, [2]float64{12, 189},
		[]string{"outdoor", "running", "fitness", "lightweight", "waterproof"}, []string{"a breathable mesh upper", "non-slip natural rubber", "waterproof membrane", "recycled materials"}},
	{"Toys", []string{"Playwise", "Tinker Town"}, []string{"Building Blocks Set", "Wooden Train", "Puzzle 1000 Pieces", "Remote Control Car", "Plush Bear"}, [2]float64{9, 129},
		[]string{"kids", "educational", "gift", "wooden"}, []string{"non-toxic paints", "over 500 pieces", "rechargeable batteries"}},
	{"Clothing", []string{"Northwind", "Urban Thread", "Alpaca Co"}, []string{"Winter Jacket", "Merino Sweater", "Rain Coat", "Denim Jeans", "Wool Socks"}, [2]float64{14, 299},
		[]string{"winter", "merino", "waterproof", "organic"}, []string{"100% merino wool", "a detachable hood", "taped seams", "a relaxed fit"}},
	{"Beauty", []string{"Lumen Skin", "Botanica"}, []string{"Face Serum", "Hand Cream", "Shampoo Bar", "Sunscreen SPF 50"}, [2]float64{7, 79},
		[]string{"vegan", "organic", "fragrance-free"}, []string{"hyaluronic acid", "plastic-free packaging", "natural plant oils"}},
}

var demoAdjectives = []string{"Classic", "Pro", "Ultra", "Compact", "Everyday", "Premium", "Eco", "Lite", "Deluxe", "Essential"}

func demoProducts(rng *rand.Rand, now time.Time, n int) []map[string]any {
	out := make([]map[string]any, 0, n)
	for i := 0; i < n; i++ {
		cat := demoCatalog[rng.IntN(len(demoCatalog))]
		brand := pick(rng, cat.brands)
		name := fmt.Sprintf("%s %s %s", brand, pick(rng, demoAdjectives), pick(rng, cat.nouns))
		price := cat.price[0] + rng.Float64()*(cat.price[1]-cat.price[0])
		price = math.Floor(price) + 0.99
		stock := 0
		if rng.IntN(10) > 1 {
			stock = rng.IntN(250) + 1
		}
		ntags := rng.IntN(3) + 1
		tags := []string{}
		for _, j := range rng.Perm(len(cat.tags))[:min(ntags, len(cat.tags))] {
			tags = append(tags, cat.tags[j])
		}
		desc := fmt.Sprintf("The %s from %s features %s and %s. %s", name, brand, pick(rng, cat.feature), pick(rng, cat.feature),
			pick(rng, []string{"Backed by a two-year warranty.", "Ships within 24 hours.", "A customer favourite.", "Limited stock available.", "Designed in Europe."}))
		out = append(out, map[string]any{
			"name":        name,
			"category":    cat.name,
			"brand":       brand,
			"price":       price,
			"in_stock":    stock > 0,
			"stock":       stock,
			"rating":      math.Round((2.5+rng.Float64()*2.5)*10) / 10,
			"tags":        tags,
			"description": desc,
			"created":     now.Add(-time.Duration(rng.Int64N(int64(730 * 24 * time.Hour)))).UTC().Format("2006-01-02T15:04:05Z"),
		})
	}
	return out
}
