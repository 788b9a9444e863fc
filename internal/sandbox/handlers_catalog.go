package sandbox

import (
	"github.com/svcui/svcui/internal/models"
)

func (s *Sandbox) listClouds(c *call) (any, error) {
	return map[string]any{"clouds": s.catalogueClouds()}, nil
}

func (s *Sandbox) listServiceTypes(c *call) (any, error) {
	return map[string]any{"service_types": s.catalogueServiceTypes()}, nil
}

func (s *Sandbox) listPlans(c *call) (any, error) {
	if _, err := c.project(c.param("project"), accessRead, "read plans"); err != nil {
		return nil, err
	}
	t := c.param("type")
	if !knownServiceType(t) {
		return nil, notFound("Service type %s does not exist", t)
	}
	q := c.r.URL.Query()
	for k := range q {
		if k != "cloud" {
			return nil, badRequest("Unknown query parameter %q (only cloud is accepted)", k)
		}
	}
	cloud := q.Get("cloud")
	if q.Has("cloud") && !knownCloud(cloud) {
		return nil, badRequest("Invalid cloud: %q is not a cloud region; see GET /v1/clouds", cloud)
	}
	plans := plansFor(t, cloud)
	if plans == nil {
		plans = []models.Plan{}
	}
	return map[string]any{"plans": plans}, nil
}
