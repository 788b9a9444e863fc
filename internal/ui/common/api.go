package common

import (
	"context"
	"io"
	"time"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/models"
)

// API lists the client's read methods the UI calls, and Writer its write methods;
// *api.Client satisfies both (checked at compile time in package ui). Besides ui
// (run.go, welcome.go) only this file imports internal/api, for the result types of the
// fan-out; panes call through these interfaces, so tests may pass a fake. A pane that
// needs another method adds one line to the one it belongs to.
//
// Views read through ctx.API, which holds only these methods (the client is wrapped,
// so no type assertion finds its writes). A Writer is handed to a Write's Send by the
// pipeline (write.go) and nowhere else: a view that changes the platform does not
// compile unless it declares a Write.
type API interface {
	ListClouds(ctx context.Context) ([]models.Cloud, error)
	ListServiceTypes(ctx context.Context) ([]models.ServiceType, error)
	ListPlans(ctx context.Context, project, serviceType, cloud string) ([]models.Plan, error)

	ListProjects(ctx context.Context) (models.ProjectList, error)
	ListProjectSummaries(ctx context.Context, previous []*models.ProjectSummary) (models.ProjectSummaries, error)
	GetProject(ctx context.Context, name string) (models.Project, error)

	ListBillingGroups(ctx context.Context, accountID string) ([]models.BillingGroup, error)
	GetCredits(ctx context.Context, accountID string) (models.Credits, error)
	GetBillingGroup(ctx context.Context, id string) (models.BillingGroup, error)
	ListInvoices(ctx context.Context, billingGroupID string) ([]models.Invoice, error)
	GetEstimate(ctx context.Context, project string) (models.Estimate, error)
	Download(ctx context.Context, url string, dst io.Writer, progress func(done, total int64)) (int64, error)

	ListServices(ctx context.Context, project string) ([]models.Service, error)
	GetService(ctx context.Context, project, service string) (models.Service, error)
	GetConnectionInfo(ctx context.Context, project, service string) (models.ConnectionInfo, error)
	ListUsers(ctx context.Context, project, service string) ([]models.ServiceUser, error)
	ListACLs(ctx context.Context, project, service string) ([]models.ACL, error)
	ListTopics(ctx context.Context, project, service string) ([]models.Topic, error)
	ListDatabases(ctx context.Context, project, service string) ([]models.Database, error)
	ListServicesAcrossProjects(ctx context.Context, projects []string) ([]api.ProjectService, []api.ProjectError)
}

// Writer is the client's write methods; only the pipeline holds one.
type Writer interface {
	CreateService(ctx context.Context, project string, req models.CreateServiceRequest) (models.Service, error)
	UpdateService(ctx context.Context, project, service string, req models.UpdateServiceRequest) (models.Service, error)
	DeleteService(ctx context.Context, project, service string) error
	CreateProject(ctx context.Context, req models.CreateProjectRequest) (models.Project, error)
	UpdateProject(ctx context.Context, name string, req models.UpdateProjectRequest) (models.Project, error)
	DeleteProject(ctx context.Context, name string) error
	CreateBillingGroup(ctx context.Context, accountID string, req models.BillingGroupRequest) (models.BillingGroup, error)
	UpdateBillingGroup(ctx context.Context, id string, req models.BillingGroupRequest) (models.BillingGroup, error)
	AssignBillingGroup(ctx context.Context, project, billingGroupID string) (models.Project, error)
	CreateUser(ctx context.Context, project, service string, req models.CreateUserRequest) (models.ServiceUser, error)
	ResetCredentials(ctx context.Context, project, service, username string) (models.ServiceUser, error)
	DeleteUser(ctx context.Context, project, service, username string) error
	CreateACL(ctx context.Context, project, service string, req models.CreateACLRequest) ([]models.ACL, error)
	CreateTopic(ctx context.Context, project, service string, req models.CreateTopicRequest) error
	CreateDatabase(ctx context.Context, project, service, database string) error
}

// Client is a whole client: what the root connects a Context to.
type Client interface {
	API
	Writer
}

// ServicesStreamer is the client's fan-out that hands over each project's answer as it
// arrives (*api.Client has it): an optional read, which ctx.API keeps when the client
// has it.
type ServicesStreamer interface {
	StreamServicesAcrossProjects(ctx context.Context, projects []string, each func(project string, services []models.Service, err error))
}

// readOnly hides a client's writes from views: ctx.API.(Writer) finds nothing.
type readOnly struct{ API }

// readOnlyStreaming is readOnly for a client that streams its fan-out.
type readOnlyStreaming struct {
	API
	ServicesStreamer
}

// Connect gives the context a client: its reads to every view (ctx.API), its writes to
// the pipeline only.
func (c *Context) Connect(client Client) {
	c.API, c.writer = readOnly{client}, client
	if s, ok := client.(ServicesStreamer); ok {
		c.API = readOnlyStreaming{client, s}
	}
}

// ConnectAs takes from's client (a profile switch builds a fresh context and keeps its
// client).
func (c *Context) ConnectAs(from *Context) { c.API, c.writer = from.API, from.writer }

// RateLimit is what the header shows about the platform's rate limit.
type RateLimit struct {
	Limit, Remaining int
	Reset            time.Time
	Known            bool
}

// Platform holds the client-side helpers that come with the API client; package ui
// fills them from internal/api so views need not import it.
type Platform struct {
	// RateLimit reports the latest rate-limit headers seen.
	RateLimit func() RateLimit
	// Message turns an error into a sentence for a person (the platform's own message
	// for API errors); never contains a secret.
	Message func(error) string
	// IsForbidden reports a 403.
	IsForbidden func(error) bool
	// IsConflict reports a 409.
	IsConflict func(error) bool
	// IsNotFound reports a 404: what was asked for does not exist (any more).
	IsNotFound func(error) bool
	// IsOutcomeUnknown reports a write that was sent but whose answer never came: it may
	// have happened. Views read the resource back instead of reporting a failure, and
	// never send it again by themselves.
	IsOutcomeUnknown func(error) bool
	// SkipReport counts the list entries a request leaves out because they could not be
	// read (no name, a field of the wrong type): lists show the rest and say so.
	SkipReport func(ctx context.Context) (context.Context, func() string)
	// WaitBulk blocks until a plan's next request may be sent: the client's budget
	// owner lets bulk work spend only while more than a quarter of the platform's limit
	// remains (api.Budget.Wait with api.Bulk).
	WaitBulk func(ctx context.Context) error
	// RateLimited reports an error of the rate limit (api.RateLimited): the platform's
	// 429 (platform true) or a background request the budget held back, and when to
	// try again (zero when nobody said).
	RateLimited func(error) (at time.Time, platform, ok bool)
	// Detail is the full account of an error for the debug log (status, content type,
	// what was unreadable); never shown whole on screen, never holding a secret.
	Detail func(error) string
}

// OutcomeUnknown reports whether err is a write of unknown outcome.
func (c *Context) OutcomeUnknown(err error) bool {
	return err != nil && c.Platform.IsOutcomeUnknown != nil && c.Platform.IsOutcomeUnknown(err)
}

// ErrorText is the sentence shown for err.
func (c *Context) ErrorText(err error) string {
	if err == nil {
		return ""
	}
	// The full account (status, content type, what was unreadable) goes to the debug
	// log; the screen gets the sentence.
	if c.Platform.Detail != nil && c.Log != nil {
		c.Log.Debug("error shown", "detail", c.Platform.Detail(err))
	}
	if c.Platform.Message != nil {
		return c.Platform.Message(err)
	}
	return err.Error()
}

// Forbidden reports whether err is the platform's 403.
func (c *Context) Forbidden(err error) bool {
	return err != nil && c.Platform.IsForbidden != nil && c.Platform.IsForbidden(err)
}

// NotFound reports whether err says the thing asked for does not exist.
func (c *Context) NotFound(err error) bool {
	return err != nil && c.Platform.IsNotFound != nil && c.Platform.IsNotFound(err)
}

// Background marks ctx's requests as background work (live refresh, watches): the
// client sends them only while half of the platform's rate budget remains, so key
// presses always find some (docs/architecture.md, "The request budget").
func Background(ctx context.Context) context.Context {
	return api.WithClass(ctx, api.Background)
}

// Bulk marks ctx's requests as a plan's over many resources: they leave a quarter of
// the rate budget to key presses.
func Bulk(ctx context.Context) context.Context { return api.WithClass(ctx, api.Bulk) }

// rateLimitDefaultWait is when to try again after a 429 that said nothing of when.
const rateLimitDefaultWait = 30 * time.Second

// RateLimitedText says that the rate limit stopped err's request, and when it is tried
// again: "rate limited by the platform; retrying at 15:04:05". ok is false for any
// other error.
func (c *Context) RateLimitedText(err error) (text string, at time.Time, ok bool) {
	if err == nil || c.Platform.RateLimited == nil {
		return "", time.Time{}, false
	}
	at, platform, ok := c.Platform.RateLimited(err)
	if !ok {
		return "", time.Time{}, false
	}
	if now := c.Now(); !at.After(now) {
		at = now.Add(rateLimitDefaultWait)
		if !platform {
			at = now.Add(time.Second)
		}
	}
	return RateLimitedSentence(platform, at), at, true
}

// RateLimitedSentence says the rate limit stopped a read until at: the platform's
// (a 429) or the budget's (background work held back for key presses).
func RateLimitedSentence(platform bool, at time.Time) string {
	clock := at.Format("15:04:05")
	if platform {
		return "rate limited by the platform; retrying at " + clock
	}
	return "waiting for the rate budget (the rest is kept for key presses); refreshing at " + clock
}
