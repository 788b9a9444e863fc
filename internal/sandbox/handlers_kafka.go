package sandbox

import (
	"encoding/hex"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// topicConfigureTime is how long a new topic stays CONFIGURING.
const topicConfigureTime = 3 * time.Second

func requireKafka(sv *service, what string) error {
	if sv.Type != models.TypeKafka {
		return badRequest("Service %s is a %s service; %s exist only on kafka services", sv.Name, sv.Type, what)
	}
	return nil
}

func aclList(sv *service) map[string]any {
	out := append([]models.ACL{}, sv.ACLs...)
	return map[string]any{"acl": out}
}

func (s *Sandbox) listACLs(c *call) (any, error) {
	_, sv, err := c.service(accessRead, "read ACLs")
	if err != nil {
		return nil, err
	}
	if err := requireKafka(sv, "ACLs"); err != nil {
		return nil, err
	}
	return aclList(sv), nil
}

func (s *Sandbox) createACL(c *call) (any, error) {
	var req models.CreateACLRequest
	if err := c.decode(&req, "username", "topic", "permission"); err != nil {
		return nil, err
	}
	_, sv, err := c.service(accessManage, "create ACLs")
	if err != nil {
		return nil, err
	}
	if err := requireKafka(sv, "ACLs"); err != nil {
		return nil, err
	}
	// The user may be a pattern (like app_*), as on the real platform.
	if err := models.ValidateUsername(strings.ReplaceAll(req.Username, "*", "x")); err != nil {
		return nil, fieldError("username", err)
	}
	if err := models.ValidateACLTopic(req.Topic); err != nil {
		return nil, fieldError("topic", err)
	}
	if err := models.ValidateACLPermission(string(req.Permission)); err != nil {
		return nil, fieldError("permission", err)
	}
	for _, a := range sv.ACLs {
		if a.Username == req.Username && a.Topic == req.Topic && a.Permission == req.Permission {
			return nil, conflict("ACL entry %s/%s/%s already exists", req.Username, req.Topic, req.Permission)
		}
	}
	sv.ACLs = append(sv.ACLs, models.ACL{ID: s.newACLID(), Username: req.Username, Topic: req.Topic, Permission: req.Permission})
	return aclList(sv), nil
}

// newACLID returns an id like the platform's: "acl" and hex digits. Callers hold the write lock.
func (s *Sandbox) newACLID() string {
	b := make([]byte, 6)
	for i := range b {
		b[i] = byte(s.rng.IntN(256))
	}
	return "acl" + hex.EncodeToString(b)
}

func (s *Sandbox) listTopics(c *call) (any, error) {
	_, sv, err := c.service(accessRead, "read topics")
	if err != nil {
		return nil, err
	}
	if err := requireKafka(sv, "topics"); err != nil {
		return nil, err
	}
	out := make([]models.Topic, 0, len(sv.Topics))
	for _, t := range sv.Topics {
		state := "ACTIVE"
		if c.now.Before(t.Created.Add(topicConfigureTime)) {
			state = "CONFIGURING"
		}
		if t.State != "" {
			state = t.State
		}
		out = append(out, models.Topic{TopicName: t.Name, Partitions: models.FlexInt(t.Partitions), Replication: models.FlexInt(t.Replication), State: state})
	}
	return map[string]any{"topics": out}, nil
}

func (s *Sandbox) createTopic(c *call) (any, error) {
	var req models.CreateTopicRequest
	if err := c.decode(&req, "topic_name"); err != nil {
		return nil, err
	}
	_, sv, err := c.service(accessManage, "create topics")
	if err != nil {
		return nil, err
	}
	if err := requireKafka(sv, "topics"); err != nil {
		return nil, err
	}
	if err := models.ValidateTopicName(req.TopicName); err != nil {
		return nil, fieldError("topic_name", err)
	}
	if req.Partitions == 0 {
		req.Partitions = 1
	}
	if req.Replication == 0 {
		req.Replication = min(2, sv.NodeCount)
	}
	if err := models.ValidatePartitions(req.Partitions); err != nil {
		return nil, fieldError("partitions", err)
	}
	if err := models.ValidateReplication(req.Replication); err != nil {
		return nil, fieldError("replication", err)
	}
	if req.Replication > sv.NodeCount {
		return nil, badRequest("Invalid replication: %d is more than the service's %d nodes", req.Replication, sv.NodeCount)
	}
	for _, t := range sv.Topics {
		if t.Name == req.TopicName {
			return nil, conflict("Topic %s already exists in service %s", req.TopicName, sv.Name)
		}
	}
	sv.Topics = append(sv.Topics, &topic{Name: req.TopicName, Partitions: req.Partitions, Replication: req.Replication, Created: c.now})
	return map[string]any{"message": "created"}, nil
}

func requireDatabases(sv *service) error {
	if !models.HasDatabases(sv.Type) {
		return badRequest("Service %s is a %s service; databases exist only on pg and mysql services", sv.Name, sv.Type)
	}
	return nil
}

func (s *Sandbox) listDatabases(c *call) (any, error) {
	_, sv, err := c.service(accessRead, "read databases")
	if err != nil {
		return nil, err
	}
	if err := requireDatabases(sv); err != nil {
		return nil, err
	}
	out := make([]models.Database, 0, len(sv.Databases))
	for _, d := range sv.Databases {
		out = append(out, models.Database{DatabaseName: d})
	}
	return map[string]any{"databases": out}, nil
}

func (s *Sandbox) createDatabase(c *call) (any, error) {
	var req models.CreateDatabaseRequest
	if err := c.decode(&req, "database"); err != nil {
		return nil, err
	}
	_, sv, err := c.service(accessManage, "create databases")
	if err != nil {
		return nil, err
	}
	if err := requireDatabases(sv); err != nil {
		return nil, err
	}
	if err := models.ValidateDatabaseName(req.Database); err != nil {
		return nil, fieldError("database", err)
	}
	for _, d := range sv.Databases {
		if d == req.Database {
			return nil, conflict("Database %s already exists in service %s", req.Database, sv.Name)
		}
	}
	sv.Databases = append(sv.Databases, req.Database)
	return map[string]any{"message": "created"}, nil
}
