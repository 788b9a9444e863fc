package sandbox

import (
	"github.com/shopspring/decimal"

	"github.com/svcui/svcui/internal/models"
)

// The catalogue is fixed data: regions, service types and plans with their prices.

var clouds = []models.Cloud{
	{CloudName: "aws-eu-west-1", CloudDescription: "Europe, Ireland - Amazon Web Services: Ireland", GeoLatitude: 53.41, GeoLongitude: -8.24, GeoRegion: "europe"},
	{CloudName: "google-europe-north1", CloudDescription: "Europe, Finland - Google Cloud: Finland", GeoLatitude: 60.57, GeoLongitude: 27.19, GeoRegion: "europe"},
	{CloudName: "azure-germany-westcentral", CloudDescription: "Europe, Germany - Azure: Germany West Central", GeoLatitude: 50.11, GeoLongitude: 8.68, GeoRegion: "europe"},
	{CloudName: "do-ams", CloudDescription: "Europe, Netherlands - DigitalOcean: Amsterdam", GeoLatitude: 52.37, GeoLongitude: 4.9, GeoRegion: "europe"},
	{CloudName: "aws-us-east-1", CloudDescription: "United States, Virginia - Amazon Web Services: N. Virginia", GeoLatitude: 38.13, GeoLongitude: -78.45, GeoRegion: "north-america"},
	{CloudName: "azure-eastus", CloudDescription: "United States, Virginia - Azure: East US", GeoLatitude: 37.37, GeoLongitude: -79.82, GeoRegion: "north-america"},
	{CloudName: "google-northamerica-northeast1", CloudDescription: "Canada, Quebec - Google Cloud: Montréal", GeoLatitude: 45.5, GeoLongitude: -73.57, GeoRegion: "north-america"},
	{CloudName: "aws-ap-southeast-1", CloudDescription: "Asia, Singapore - Amazon Web Services: Singapore", GeoLatitude: 1.35, GeoLongitude: 103.82, GeoRegion: "asia-pacific"},
	{CloudName: "google-asia-northeast1", CloudDescription: "Asia, Japan - Google Cloud: Tokyo", GeoLatitude: 35.68, GeoLongitude: 139.69, GeoRegion: "asia-pacific"},
	{CloudName: "aws-sa-east-1", CloudDescription: "South America, Brazil - Amazon Web Services: São Paulo", GeoLatitude: -23.55, GeoLongitude: -46.63, GeoRegion: "south-america"},
	{CloudName: "aws-af-south-1", CloudDescription: "Africa, South Africa - Amazon Web Services: Cape Town", GeoLatitude: -33.92, GeoLongitude: 18.42, GeoRegion: "africa"},
	{CloudName: "google-me-west1", CloudDescription: "Middle East, Israel - Google Cloud: Tel Aviv", GeoLatitude: 32.09, GeoLongitude: 34.78, GeoRegion: "middle-east"},
	{CloudName: "azure-uaenorth", CloudDescription: "Middle East, United Arab Emirates - Azure: UAE North", GeoLatitude: 25.27, GeoLongitude: 55.3, GeoRegion: "middle-east"},
}

var serviceTypes = []models.ServiceType{
	{ServiceType: models.TypeCaching, Description: "Caching - In-memory key-value store compatible with Redis", LatestAvailableVersion: "7.2"},
	{ServiceType: models.TypeClickHouse, Description: "ClickHouse - Column-oriented analytics database", LatestAvailableVersion: "24.8"},
	{ServiceType: models.TypeGrafana, Description: "Grafana - Metrics dashboards and alerting", LatestAvailableVersion: "11.4"},
	{ServiceType: models.TypeKafka, Description: "Kafka - High-throughput distributed event streaming", LatestAvailableVersion: "3.8"},
	{ServiceType: models.TypeMySQL, Description: "MySQL - Relational database management system", LatestAvailableVersion: "8.0"},
	{ServiceType: models.TypeOpenSearch, Description: "OpenSearch - Search and analyze data in real time", LatestAvailableVersion: "2.19"},
	{ServiceType: models.TypePG, Description: "PostgreSQL - Object-relational database management system", LatestAvailableVersion: "17"},
}

// planDef is a plan before pricing by type and region.
type planDef struct {
	Name      string
	Nodes     int
	DiskMB    int
	BaseHour  string // USD per hour for a PostgreSQL service in a reference region
	NoSmall   bool   // not offered in the smaller regions (DigitalOcean, Africa, Middle East)
	SmallOnly bool   // only for the lighter service types
}

var planDefs = []planDef{
	{Name: "hobbyist", Nodes: 1, DiskMB: 8192, BaseHour: "0.0260", SmallOnly: true},
	{Name: "startup-4", Nodes: 2, DiskMB: 81920, BaseHour: "0.1370"},
	{Name: "startup-8", Nodes: 2, DiskMB: 175104, BaseHour: "0.2740"},
	{Name: "business-4", Nodes: 3, DiskMB: 163840, BaseHour: "0.4110"},
	{Name: "business-8", Nodes: 3, DiskMB: 358400, BaseHour: "0.8220"},
	{Name: "premium-8", Nodes: 3, DiskMB: 716800, BaseHour: "1.6440", NoSmall: true},
}

// typeFactor scales plan prices per service type.
var typeFactor = map[string]string{
	models.TypePG: "1.00", models.TypeMySQL: "0.95", models.TypeKafka: "1.50", models.TypeOpenSearch: "1.20",
	models.TypeCaching: "0.70", models.TypeClickHouse: "1.40", models.TypeGrafana: "0.30",
}

// regionFactor scales plan prices per cloud provider.
func regionFactor(cloud string) decimal.Decimal {
	switch {
	case hasPrefix(cloud, "azure-"):
		return decimal.RequireFromString("1.04")
	case hasPrefix(cloud, "google-"):
		return decimal.RequireFromString("0.98")
	case hasPrefix(cloud, "do-"):
		return decimal.RequireFromString("0.90")
	}
	return decimal.NewFromInt(1)
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

func isSmallRegion(cloud string) bool {
	for _, c := range clouds {
		if c.CloudName == cloud {
			return hasPrefix(cloud, "do-") || c.GeoRegion == "africa" || c.GeoRegion == "middle-east"
		}
	}
	return false
}

func knownCloud(name string) bool {
	for _, c := range clouds {
		if c.CloudName == name {
			return true
		}
	}
	return false
}

func knownServiceType(t string) bool {
	for _, st := range serviceTypes {
		if st.ServiceType == t {
			return true
		}
	}
	return false
}

// typeOffersPlan reports whether a service type has the plan at all.
func typeOffersPlan(serviceType string, d planDef) bool {
	light := serviceType == models.TypePG || serviceType == models.TypeMySQL || serviceType == models.TypeCaching || serviceType == models.TypeGrafana
	if d.SmallOnly && !light {
		return false
	}
	if serviceType == models.TypeGrafana && (d.Name == "startup-8" || d.Name == "business-8" || d.Name == "premium-8") {
		return false
	}
	return true
}

// planAvailable reports whether the plan is offered for the type in the cloud.
func planAvailable(serviceType string, d planDef, cloud string) bool {
	return typeOffersPlan(serviceType, d) && !(d.NoSmall && isSmallRegion(cloud))
}

func findPlan(serviceType, name string) (planDef, bool) {
	for _, d := range planDefs {
		if d.Name == name && typeOffersPlan(serviceType, d) {
			return d, true
		}
	}
	return planDef{}, false
}

// planPrice is the hourly USD price of a plan for a type in a cloud, to 4 places.
func planPrice(serviceType string, d planDef, cloud string) decimal.Decimal {
	f, ok := typeFactor[serviceType]
	if !ok {
		f = "1.00"
	}
	p := decimal.RequireFromString(d.BaseHour).Mul(decimal.RequireFromString(f))
	if cloud != "" {
		p = p.Mul(regionFactor(cloud))
	}
	return p.Round(4)
}

// plansFor lists the plans of a type, priced for cloud when one is given.
func plansFor(serviceType, cloud string) []models.Plan {
	var out []models.Plan
	for _, d := range planDefs {
		if !typeOffersPlan(serviceType, d) {
			continue
		}
		var names []string
		for _, c := range clouds {
			if planAvailable(serviceType, d, c.CloudName) {
				names = append(names, c.CloudName)
			}
		}
		if cloud != "" {
			if !planAvailable(serviceType, d, cloud) {
				continue
			}
			names = []string{cloud}
		}
		price := planPrice(serviceType, d, cloud)
		out = append(out, models.Plan{
			PlanName:    d.Name,
			PriceUSD:    models.Amount{Value: price, Set: true},
			NodeCount:   models.FlexInt(nodeCount(serviceType, d)),
			DiskSpaceMB: models.FlexInt(d.DiskMB),
			CloudNames:  names,
		})
	}
	return out
}

// nodeCount: Kafka clusters never run on fewer than three brokers.
func nodeCount(serviceType string, d planDef) int {
	if serviceType == models.TypeKafka && d.Nodes < 3 {
		return 3
	}
	return d.Nodes
}

// currencyRate converts USD into a billing currency (fixed rates; the sandbox is not a bank).
var currencyRate = map[string]string{"USD": "1", "EUR": "0.92", "GBP": "0.79", "CHF": "0.88", "SEK": "10.45", "NOK": "10.70", "DKK": "6.86", "JPY": "151.20", "AUD": "1.52", "CAD": "1.37", "NZD": "1.66", "SGD": "1.34"}

func toCurrency(usd decimal.Decimal, currency string) decimal.Decimal {
	return usd.Mul(rateOf(currency))
}

// convertCurrency converts an amount between two billing currencies through USD.
func convertCurrency(amount decimal.Decimal, from, to string) decimal.Decimal {
	if from == to {
		return amount
	}
	return toCurrency(amount.Div(rateOf(from)), to)
}

// rateOf is the USD rate of a currency; an unknown currency counts as USD.
func rateOf(currency string) decimal.Decimal {
	r, ok := currencyRate[currency]
	if !ok {
		r = "1"
	}
	return decimal.RequireFromString(r)
}

// defaultPort is the port a service type listens on.
func defaultPort(serviceType string) int {
	switch serviceType {
	case models.TypePG:
		return 5432
	case models.TypeMySQL:
		return 3306
	case models.TypeKafka:
		return 9093
	case models.TypeOpenSearch:
		return 9200
	case models.TypeCaching:
		return 6380
	case models.TypeClickHouse:
		return 9440
	}
	return 443
}
