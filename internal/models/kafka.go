package models

// ACL is one Kafka ACL entry.
type ACL struct {
	ID         string        `json:"id,omitempty"`
	Username   string        `json:"username"`
	Topic      string        `json:"topic"`
	Permission ACLPermission `json:"permission"`
}

// CreateACLRequest is the body of POST .../acl.
type CreateACLRequest struct {
	Username   string        `json:"username"`
	Topic      string        `json:"topic"`
	Permission ACLPermission `json:"permission"`
}

// Topic is a Kafka topic.
type Topic struct {
	TopicName   string  `json:"topic_name"`
	Partitions  FlexInt `json:"partitions"`
	Replication FlexInt `json:"replication"`
	State       string  `json:"state"`
}

// CreateTopicRequest is the body of POST .../topic.
type CreateTopicRequest struct {
	TopicName   string `json:"topic_name"`
	Partitions  int    `json:"partitions"`
	Replication int    `json:"replication"`
}

// Database is a database of a relational service.
type Database struct {
	DatabaseName string `json:"database_name"`
}

// CreateDatabaseRequest is the body of POST .../database.
type CreateDatabaseRequest struct {
	Database string `json:"database"`
}
