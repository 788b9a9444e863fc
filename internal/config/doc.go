// Package config reads svcui's settings from flags, the environment and
// $XDG_CONFIG_HOME/svcui/config.yaml, and merges them into one Settings value
// with the precedence of the interaction contract: flags > environment >
// config file > defaults.
//
// It also runs a profile's token_command, writes profiles back to the file
// (atomically, mode 0600, for the welcome screen), and knows where logs and
// history live ($XDG_STATE_HOME/svcui). Tokens never appear in the String or
// log form of any type here, nor in any error this package returns.
package config
