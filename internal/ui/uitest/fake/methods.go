package fake

// Method names a method of the client (common.API and common.Writer), for rules and the
// call log.
type Method string

// The client's methods.
const (
	ListClouds                   Method = "ListClouds"
	ListServiceTypes             Method = "ListServiceTypes"
	ListPlans                    Method = "ListPlans"
	ListProjects                 Method = "ListProjects"
	ListProjectSummaries         Method = "ListProjectSummaries"
	GetProject                   Method = "GetProject"
	ListBillingGroups            Method = "ListBillingGroups"
	GetCredits                   Method = "GetCredits"
	GetBillingGroup              Method = "GetBillingGroup"
	ListInvoices                 Method = "ListInvoices"
	GetEstimate                  Method = "GetEstimate"
	Download                     Method = "Download"
	ListServices                 Method = "ListServices"
	GetService                   Method = "GetService"
	GetConnectionInfo            Method = "GetConnectionInfo"
	ListUsers                    Method = "ListUsers"
	ListACLs                     Method = "ListACLs"
	ListTopics                   Method = "ListTopics"
	ListDatabases                Method = "ListDatabases"
	ListServicesAcrossProjects   Method = "ListServicesAcrossProjects"
	StreamServicesAcrossProjects Method = "StreamServicesAcrossProjects"

	CreateService      Method = "CreateService"
	UpdateService      Method = "UpdateService"
	DeleteService      Method = "DeleteService"
	CreateProject      Method = "CreateProject"
	UpdateProject      Method = "UpdateProject"
	DeleteProject      Method = "DeleteProject"
	CreateBillingGroup Method = "CreateBillingGroup"
	UpdateBillingGroup Method = "UpdateBillingGroup"
	AssignBillingGroup Method = "AssignBillingGroup"
	CreateUser         Method = "CreateUser"
	ResetCredentials   Method = "ResetCredentials"
	DeleteUser         Method = "DeleteUser"
	CreateACL          Method = "CreateACL"
	CreateTopic        Method = "CreateTopic"
	CreateDatabase     Method = "CreateDatabase"
)

var writes = map[Method]bool{CreateService: true, UpdateService: true, DeleteService: true, CreateProject: true,
	UpdateProject: true, DeleteProject: true, CreateBillingGroup: true, UpdateBillingGroup: true,
	AssignBillingGroup: true, CreateUser: true, ResetCredentials: true, DeleteUser: true, CreateACL: true,
	CreateTopic: true, CreateDatabase: true}

// Writes reports a method of common.Writer.
func (m Method) Writes() bool { return writes[m] }

// Creates are the methods that create something under a service (users, topics,
// databases, ACLs), for a rule on all of them.
var Creates = []Method{CreateUser, CreateTopic, CreateDatabase, CreateACL}
