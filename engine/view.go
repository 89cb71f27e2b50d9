package engine

// A View is what a picture of the board shows, described without drawing
// anything: the rule system says what is on the table, and the renderer
// decides how it looks. Positions are in the rule system's units (strides
// or inches on an open table; columns and rows on a grid).

// BoardKind is the shape of a board.
type BoardKind uint8

const (
	OpenTable  BoardKind = iota // measured in units, pieces on bases
	SquareGrid                  // squares, referenced like "C4"
	HexGrid                     // hexes, referenced like "0412"
)

// View is a read-only description of the board at one step.
type View struct {
	Kind BoardKind
	// Width and Depth are the table's size in units (open table) or its
	// number of columns and rows (grids).
	Width, Depth float64
	// Unit names the open table's unit for the ruler: "strides", "inches".
	Unit string
	// Title and Caption head the picture: the book and the round; whose
	// turn is next.
	Title, Caption string
	Groups         []Group
	Zones          []Zone
	Terrain        []Terrain
	Pieces         []Piece
	Tokens         []Token
	Marks          []Mark
	// Focus is where the game stands now when the last step left no
	// marks (the units an activation commands, say): a picture that
	// shows only part of a large board shows this part.
	Focus []Vec
	// Aside are pieces still in play but off the board (cavalry that
	// has ridden off a hex map in pursuit): the picture lists them in a
	// box under the board, each with its Crew saying why.
	Aside []Piece

	// Pips names what a piece's pips count, in the singular: "wound"
	// when left empty, "stand" for armies of stands.
	Pips string
}

// Group is a body of pieces that share a colour: a clan, a side's army.
type Group struct {
	Name   string
	Player string
	// Side is 0 or 1; the renderer marks the two sides differently as
	// well as by colour.
	Side int
}

// Zone is a marked area, such as a deployment zone.
type Zone struct {
	Label    string
	Min, Max Vec
	Side     int
}

// TerrainKind is what a piece of terrain does.
type TerrainKind uint8

const (
	Rough  TerrainKind = iota // blocks some movement (rocks, groves, palisades)
	Stream                    // must be crossed with a stop
	Road
	Protected // woods, buildings: cover
	Dark      // unlit: a spell's darkness, where no one sees
)

// Terrain is an area of the table, as a polygon.
type Terrain struct {
	Kind    TerrainKind
	Label   string
	Outline []Vec
}

// Piece is one element on the table.
type Piece struct {
	// Label is the short name players type ("MYR-W2").
	Label string
	// Kind is a one- or two-letter code drawn on the base: "H", "C",
	// "W", "CH", or a troop type.
	Kind  string
	Group int // index in View.Groups
	// Base is the piece's base on an open table; on a grid, Base.Center
	// is the cell (as a Square or Hex converted by the rule system to
	// column and row) and Base.Facing its facing.
	Base   Base
	Wounds int
	Limit  int // wounds that remove it; 0 when it does not take wounds
	// Crew is drawn beside the label, such as a chariot's "driver, Hero".
	Crew string
}

// TokenKind is a marker left on the table.
type TokenKind uint8

const (
	BodyToken   TokenKind = iota // a fallen Hero or Companion
	ArmorToken                   // dropped armor
	MarkerToken                  // anything else a rule system marks
)

// Token is a marker on the table.
type Token struct {
	Kind  TokenKind
	Label string
	At    Vec
	Group int
}

// MarkKind is what the last step did, drawn over the board.
type MarkKind uint8

const (
	MoveMark   MarkKind = iota // a trail from From to To
	FireMark                   // a missile from From to To; Hit says whether it struck
	MeleeMark                  // a pairing between From and To, with its result in Label
	ImpactMark                 // a push from From to To
	KillMark                   // an element removed at At
)

// Mark is one thing the last step did.
type Mark struct {
	Kind     MarkKind
	From, To Vec
	Hit      bool
	Label    string
	Group    int
}

// Viewer is implemented by rule systems whose games can be drawn.
type Viewer interface {
	// View describes g's board; last are the events of the step just
	// taken, drawn on top.
	View(g *Game, last []Event) View
}

// Drawing is a rule system's picture of its board, typed on its state:
// embedded in the rule system beside its [Rulebook], it makes it a
// [Viewer]. last are the events of the step just taken.
type Drawing[S State] func(s S, last []Event) View

var _ Viewer = Drawing[State](nil)

// View describes g's board through d.
func (d Drawing[S]) View(g *Game, last []Event) View {
	s, ok := g.State.(S)
	if !ok || d == nil {
		return View{}
	}
	return d(s, last)
}
