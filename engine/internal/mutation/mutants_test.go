package mutation

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// A kind is one sort of small mistake a mutant makes.
type kind int

const (
	flipCompare kind = iota // < and <=, > and >=, == and != traded
	shiftConst              // an integer constant one more or one less
	negateCond              // an if's condition negated
	swapLogic               // && and || traded
	dropField               // a field assignment, or a field of a literal, left out
)

func (k kind) String() string {
	switch k {
	case flipCompare:
		return "flip comparison"
	case shiftConst:
		return "shift constant"
	case negateCond:
		return "negate condition"
	case swapLogic:
		return "swap && and ||"
	case dropField:
		return "drop field"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// A site is one place in one file where a mistake can be made: the bytes
// start:end of the file are replaced by repl (or, for a constant, by down,
// when the draw says so and the constant is above zero).
type site struct {
	file       string
	kind       kind
	start, end int
	repl, down string
}

// mutant is the file's source with s applied, lowering a constant when down.
func (s site) mutant(src []byte, down bool) []byte {
	r := s.repl
	if down && s.down != "" {
		r = s.down
	}
	out := make([]byte, 0, len(src)+len(r))
	out = append(out, src[:s.start]...)
	out = append(out, r...)
	return append(out, src[s.end:]...)
}

var flipped = map[token.Token]string{
	token.LSS: "<=", token.LEQ: "<", token.GTR: ">=", token.GEQ: ">",
	token.EQL: "!=", token.NEQ: "==",
}

// sites lists every site of src, a Go file named name, in source order.
func sites(name string, src []byte) ([]site, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return string(src[off(n.Pos()):off(n.End())]) }
	var out []site
	add := func(k kind, start, end int, repl, down string) {
		out = append(out, site{file: name, kind: k, start: start, end: end, repl: repl, down: down})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.BinaryExpr:
			p := off(n.OpPos)
			if r, ok := flipped[n.Op]; ok {
				add(flipCompare, p, p+len(n.Op.String()), r, "")
			}
			if n.Op == token.LAND || n.Op == token.LOR {
				r := "||"
				if n.Op == token.LOR {
					r = "&&"
				}
				add(swapLogic, p, p+2, r, "")
			}
		case *ast.BasicLit:
			if n.Kind != token.INT {
				break
			}
			v, err := strconv.ParseInt(n.Value, 0, 64)
			if err != nil {
				break
			}
			down := ""
			if v > 0 {
				down = strconv.FormatInt(v-1, 10)
			}
			add(shiftConst, off(n.Pos()), off(n.End()), strconv.FormatInt(v+1, 10), down)
		case *ast.IfStmt:
			add(negateCond, off(n.Cond.Pos()), off(n.Cond.End()), "!("+text(n.Cond)+")", "")
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 || n.Tok == token.DEFINE {
				break
			}
			if _, ok := n.Lhs[0].(*ast.SelectorExpr); ok {
				add(dropField, off(n.Pos()), off(n.End()), "_ = "+text(n.Rhs[0]), "")
			}
		case *ast.IncDecStmt:
			if _, ok := n.X.(*ast.SelectorExpr); ok {
				add(dropField, off(n.Pos()), off(n.End()), "_ = "+text(n.X), "")
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if _, ok := kv.Key.(*ast.Ident); !ok || zeroLit(kv.Value) {
					continue
				}
				start, end := off(kv.Pos()), off(kv.End())
				if end < len(src) && src[end] == ',' {
					end++
				}
				add(dropField, start, end, "", "")
			}
		}
		return true
	})
	return out, nil
}

// describe says in one line what the mutant at s changes.
func (s site) describe(src []byte, down bool) string {
	r := s.repl
	if down && s.down != "" {
		r = s.down
	}
	old := string(src[s.start:s.end])
	if len(old) > 60 {
		old = old[:57] + "..."
	}
	if len(r) > 60 {
		r = r[:57] + "..."
	}
	return fmt.Sprintf("%s: %q -> %q", s.kind, old, r)
}

// zeroLit reports whether e is written as its type's zero value (0, "",
// false, nil, T{}): a field so set is set to what leaving it out gives,
// and dropping it is no mistake at all.
func zeroLit(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Value == "0" || e.Value == `""` || e.Value == "0.0"
	case *ast.Ident:
		return e.Name == "false" || e.Name == "nil"
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	}
	return false
}
