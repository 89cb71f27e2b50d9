package bot

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/systems"
)

// TestBotImportsNoRuleSystem reads the imports of every file of bot and
// the packages under it, tests aside: none may import a rule system (nor
// the list of them), so that the bot serves whatever systems cmd/rhapsode
// hands it, through the engine's interfaces alone.
func TestBotImportsNoRuleSystem(t *testing.T) {
	banned := map[string]bool{"github.com/rhapsode/rhapsode/engine/systems": true}
	for _, id := range systems.IDs() {
		banned["github.com/rhapsode/rhapsode/engine/"+id] = true
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); banned[p] {
				t.Errorf("bot/%s imports the rule system %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
