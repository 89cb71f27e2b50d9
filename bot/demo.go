package bot

import _ "embed"

// DemoScript is the demonstration `rhapsode local --demo` plays: a short
// practice book with missile fire, a melee, a challenge and a fallen
// Companion, its cards stacked so that it always plays the same way.
//
//go:embed demo.script
var DemoScript string
