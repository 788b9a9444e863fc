package common

import (
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// ArgKind says what a palette command's argument names, for completion.
type ArgKind int

// Argument kinds.
const (
	NoArg ArgKind = iota
	ProjectArg
	ServiceArg
	ProfileArg
	FreeArg
	// AnyServiceArg is a service of the current project (NAME) or of another one
	// (PROJECT/NAME).
	AnyServiceArg
	// BillingGroupArg is a billing group's name.
	BillingGroupArg
)

// Command is one palette command. Panes register theirs; registering a name again
// replaces the earlier command (the root's tab-switching defaults are meant to be
// replaced by panes).
type Command struct {
	// Name is what the user types, possibly two words ("services all").
	Name string
	Arg  ArgKind
	Help string
	// Run returns the command's effect; arg is "" for NoArg commands.
	Run func(ctx *Context, arg string) tea.Cmd
	// Mutating commands are refused in read-only mode before Run is called.
	Mutating bool
	// OptionalArg commands also run bare (Run gets ""), e.g. "search" with or without a service.
	OptionalArg bool
	// Accepts, when set, narrows the names offered for the argument to the valid
	// targets ("search" offers opensearch services only).
	Accepts func(ctx *Context, arg string) bool
}

// Commands is the palette's registry.
type Commands struct {
	byName  map[string]Command
	aliases map[string]string
	// withArg is the command an alias stands for when a name follows it ("svc pg-main"
	// is "service pg-main", while "svc" alone is "services").
	withArg map[string]string
}

// NewCommands returns an empty registry.
func NewCommands() *Commands {
	return &Commands{byName: map[string]Command{}, aliases: map[string]string{}, withArg: map[string]string{}}
}

// AliasWithArg makes alias followed by a name run withArg ("svc NAME" → "service NAME").
func (c *Commands) AliasWithArg(alias, withArg string) {
	c.withArg[strings.ToLower(alias)] = strings.ToLower(withArg)
}

// Alias makes a short word run a command ("svc" for "services"), as k9s users type.
func (c *Commands) Alias(alias, name string) {
	c.aliases[strings.ToLower(alias)] = strings.ToLower(name)
}

// Aliases returns alias → command name.
func (c *Commands) Aliases() map[string]string { return c.aliases }

// Register adds or replaces commands.
func (c *Commands) Register(cmds ...Command) {
	for _, cmd := range cmds {
		c.byName[strings.ToLower(cmd.Name)] = cmd
	}
}

// All returns the commands sorted by name.
func (c *Commands) All() []Command {
	out := make([]Command, 0, len(c.byName))
	for _, cmd := range c.byName {
		out = append(out, cmd)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup resolves a typed line to a command and its argument: the longest registered
// name that is a word-prefix of the line wins ("services all" before "services").
func (c *Commands) Lookup(line string) (Command, string, bool) {
	fields := strings.Fields(line)
	if len(fields) > 0 {
		first := strings.ToLower(fields[0])
		if name, ok := c.withArg[first]; ok && len(fields) > 1 {
			fields = append(strings.Fields(name), fields[1:]...)
		} else if name, ok := c.aliases[first]; ok {
			fields = append(strings.Fields(name), fields[1:]...)
		}
	}
	for n := len(fields); n > 0; n-- {
		name := strings.ToLower(strings.Join(fields[:n], " "))
		if cmd, ok := c.byName[name]; ok {
			arg := strings.Join(fields[n:], " ")
			if cmd.Arg == NoArg && arg != "" {
				continue
			}
			return cmd, arg, true
		}
	}
	return Command{}, "", false
}
