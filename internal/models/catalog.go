package models

// Cloud is a cloud region of the catalogue.
type Cloud struct {
	CloudName        string  `json:"cloud_name"`
	CloudDescription string  `json:"cloud_description"`
	GeoLatitude      float64 `json:"geo_latitude"`
	GeoLongitude     float64 `json:"geo_longitude"`
	GeoRegion        string  `json:"geo_region"`
}

// ServiceType is a service type of the catalogue.
type ServiceType struct {
	ServiceType            string `json:"service_type"`
	Description            string `json:"description"`
	LatestAvailableVersion string `json:"latest_available_version"`
}

// Plan is a service plan. PriceUSD is per hour.
type Plan struct {
	PlanName    string   `json:"plan_name"`
	PriceUSD    Amount   `json:"price_usd"`
	NodeCount   FlexInt  `json:"node_count,omitempty"`
	DiskSpaceMB FlexInt  `json:"disk_space_mb,omitempty"`
	CloudNames  []string `json:"cloud_names,omitempty"`
}

// MonthlyUSD is the plan's hourly price × 730 hours, exactly.
func (p Plan) MonthlyUSD() Amount { return p.PriceUSD.Mul(HoursPerMonth) }

// Tier returns the plan tier: hobbyist, startup, business or premium (the prefix
// before the first hyphen), or the whole name when it has none.
func (p Plan) Tier() string {
	for i := 0; i < len(p.PlanName); i++ {
		if p.PlanName[i] == '-' {
			return p.PlanName[:i]
		}
	}
	return p.PlanName
}
