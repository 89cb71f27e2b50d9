// Package render draws board pictures: after each step of a game the bot
// posts one, and a player on a phone must read it at a glance.
//
// The only input is an [engine.View], the rule system's description of
// what is on the table; render imports nothing else of the project.
//
//	r := render.New(render.Options{})   // 1280 pixels wide
//	pic, err := r.PNG(view)             // a PNG file, usually under 150 KB
//	w, h, err := r.Size(view)           // its size, laid out but not drawn
//
// A [Renderer] is safe for concurrent use; make one and share it.
//
// # What the picture shows
//
// A header with the view's Title and Caption, and how players name
// places on this board under the caption, which has the whole width; a
// title too long for one line takes two rather than be cut.
// Below it the board, to scale; on an open table,
// the part of it where the last step happened, or where the pieces
// stand, with the ruler still giving the table's own positions (see
// frame.go):
//
//   - On an open table, a ruler on all four sides whose numbers are what
//     players type in "/move to:x,y": the origin is the bottom-left
//     corner, x grows to the right and y up the picture, in View.Unit.
//     Light grid lines run across the table at each numbered step.
//   - On a square grid, column letters and row numbers as players name
//     squares ("A1" is bottom left, see engine.Square); on a hex grid,
//     flat-topped hexes each with its printed number ("0412", see
//     engine.Hex).
//   - Deployment zones (View.Zones) as pale bands, blue-grey for side 0
//     and warm for side 1, with a dashed edge and their label.
//   - Terrain (View.Terrain), each kind with its own pattern as well as
//     colour: rough ground hatched, streams lined like water, roads plain
//     and edged, protected ground (woods, buildings) dotted with trees.
//   - Every piece: on an open table its base to scale, turned to its
//     facing, with its front edge a white bar cased in black; on a grid a
//     counter in its cell with a white tick pointing its facing. The base
//     is filled in its group's colour, solid for side 0 and hatched for
//     side 1, so the sides differ for colour-blind players too; its Kind
//     is written on it where it fits. Beside it goes its label: always
//     the full name players type ("MYR-W2", never "W2"); a label that had
//     to move away is joined to its piece by a thin line. After the name come the wound pips (filled red for each
//     wound taken, hollow for the rest up to Piece.Limit; View.Pips
//     may say they count stands instead), or, for a piece of more than
//     eight, its losses alone as a count ("−4" figures lost, "+4" wounds or
//     hits taken, nothing while it has none), and under it Piece.Crew. A terrain's name goes in the
//     middle of the part of it shown, beside a feature too thin to hold
//     it (a wall), and always wholly inside the table.
//   - Tokens: a fallen body is a disc crossed by a bar, dropped armour a
//     shield, any other marker a diamond, in the group's colour.
//   - The last step (View.Marks): moves as arrows in the mover's colour
//     (a ring where something was set down), missiles as thin black
//     arrows, solid with a burst round the target when they hit and dashed
//     when they miss, melee pairings as a line with a yellow disc where
//     they meet and their result on a yellow plate, pushes as hollow
//     arrows, and removals as a red cross open in the middle. Trails and
//     pairing lines go under the pieces, the rest over them.
//
// And a legend: a key to the cues this picture uses (solid and hatched
// sides, named after the zones; front edge or facing tick; pips; tokens;
// marks), then each group's sample base, label prefix, name and player.
//
// Groups take the Okabe–Ito palette, chosen so that people with any
// common colour-vision deficiency can tell its colours apart. Up to
// eight groups all differ in colour; beyond that a colour is reused
// first across the two sides (solid against hatched), and only then
// within a side, where white dots on the later group's bases tell them
// apart. Every string drawn has at least 4.5:1 contrast (WCAG 2's
// relative luminance) with what is under its letters: a base's type
// letters take the ink or white, whichever contrasts more with the fill;
// labels stand on a white halo; zone names and hex numbers are dark
// enough for every ground they fall on. TestTextContrast has each face
// report every string it draws, its ink and what it lands on.
//
// # Grid positions
//
// On a square grid a position is (column, row), zero-based from A1, as
// engine.Square; on a hex grid it is the printed (column, row), as
// engine.Hex.Offset. Pieces, tokens and marks are drawn at their cells'
// centres. A zone covers the cells from Min to Max, both included. A
// terrain outline covers every cell whose centre lies inside it or on its
// edge, so one point is one cell and two points a line of cells. A hex
// map is numbered from 0101 as printed maps are, unless something on it
// stands in column or row 00.
//
// # How it is fast
//
// A picture is drawn with github.com/fogleman/gg and encoded in a few
// milliseconds:
//
//   - The static layer (table, grid, ruler, zones, terrain) is drawn in
//     two parts. Its ground (the table or map with its cells, grid
//     lines and terrain) is drawn once for the whole table at each
//     scale a picture shows it at, whatever part of it is shown and
//     whatever zones it has, and each frame is cut from it. Zones come
//     and go on a table that stays (deployment ends; a hex leader's
//     command range follows whoever is active), so their fills are
//     tinted onto each frame's cut, under the terrain and lines as if
//     drawn first: the ground's open sand is filled in a colour whose
//     painter leaves the alpha at none, and everything drawn over it
//     raises the alpha by what it covers, so one drawing keeps in each
//     pixel's alpha how much of it is bare sand (fill.go's bare,
//     zones.go). A frame's scale is one of a
//     few zoom levels (frame.go: a frame is 20, 30, 45… units, 8, 12,
//     18… squares or 12, 16, 21… hexes wide, or the whole width), so a
//     table has a few grounds at most. The board's world origin
//     falls on a whole pixel, so every frame at one scale is a
//     whole-pixel cut of the same ground (a hex frame keeps whole
//     hexes, its edge hexes drawn alone on white, onto the frame before
//     the ground is cut over it, their pixels near the frame's edge
//     kept aside and put back). Over the cut go the
//     frame's markings (zones' borders and names, terrain's names, the
//     table's edge, the ruler or the squares' letters), a few strokes
//     and words; on an open table the terrain's names, which step aside
//     from the pieces, are drawn on each picture instead, so that a
//     frame serves whatever stands in it. Grounds and frames are cached
//     as runs of equal pixels, a row the same as the one above sharing
//     its runs, each colour a two-byte number in the layer's own table
//     of colours, the antialiased pixels between runs too: a tenth of
//     the picture's size or less (runs.go). A
//     picture copies a row of its frame only when a piece, mark or label
//     is about to paint over it (the box each says it reaches, the same
//     one that decides which band paints it); the rest, and the legend,
//     cached the same way by what it shows, are never copied: the
//     palette's mapping writes them from the runs, a run's index at a
//     time, with the layer's literal pixels mapped once for its palette
//     (a frame seen for the first time is drawn straight onto the
//     picture, and kept). A row painted over is mapped from its pixels
//     only in the columns painted over, the rest from the runs. A
//     legend's swatches hatch from their own corner, so that a legend
//     looks the same, and is kept once, wherever the board ends.
//   - Text is drawn from the Go fonts (golang.org/x/image/font/gofont,
//     compiled in: no system fonts) without hinting, and each string's
//     coverage and halo are cached as masks and painted straight onto
//     the picture. Wound pips are sprites pasted over the picture.
//   - Each base is its own short path: gg's rasteriser keeps a sorted
//     list of cells per pixel row, so one path along a whole battle line
//     is much slower than many small ones.
//   - The picture is mostly flat colour, so it is reduced to a 256-colour
//     palette and written as a paletted PNG. The palette is its table's,
//     made once for the table, its zones and its groups' colours
//     (palette.go): the colours drawn flat kept exact, then the shades
//     that antialiasing makes where those colours meet and the ground's
//     own, none within 16 levels a channel of one kept, no dithering.
//     Pixels map to it through a lookup of 32,768 bins, on every core.
//     The file is written at the fastest deflate level: several times
//     faster to encode than a true-colour PNG, and a third of its size.
//     Pieces of 64 rows are compressed on every core at once, each on
//     its own, and joined into the one stream (png.go), as pigz does;
//     up to 2 MB of compressed pieces are kept by a hash of their rows
//     (a row that is its layer's by the hash the layer keeps of it), and
//     a piece found is neither mapped to the palette nor compressed
//     again: from one step to the next, half to two thirds of them.
//   - A piece's front bar is filled as the rectangle it is, not stroked;
//     a label's leader is stroked by the same short rasteriser (fill.go).
//     A grid's cells are filled the same way, and the filler writes a
//     span that an opaque colour covers wholly straight, where gg blends
//     every pixel: the same pixels, at about half the cost of a static
//     layer. An open table's ground is a box, filled as such.
//   - Once the labels are placed, the picture is painted in bands of
//     rows, one a core, at once (bands.go): each band paints everything
//     that reaches its rows, clipped to them, and skips the rest, and
//     each piece of the PNG maps its rows to the palette just before
//     compressing them.
//   - A label over its halo is kept painted: its rows where the halo is
//     whole are copied, and only the halo's edge is blended.
//   - Pictures are laid out (pieces shaped, labels placed) before they
//     take a canvas, and only one picture per four cores is painted,
//     quantised and encoded at a time, as each uses every core: many
//     channels drawing at once hold one canvas each per four cores.
//   - Buffers, font faces (one set, shared under locks) and gg contexts
//     are kept for the next picture, but for a ground: it is drawn
//     before the picture takes a canvas, the kept canvases let go
//     meanwhile, as a ground's band of rows is as large as a picture
//     and the collector lets the heap grow to twice what it finds live.
//     An open table's terrain is clipped to the table by runs of like
//     rows of the box's mask (static.go: clipped), not by a mask as
//     large as the ground, and its woods' trees are filled a row at a
//     time: the same pixels, with less held while a ground is drawn.
//
// BenchmarkBattle12 and BenchmarkBattle12Naive (plain gg and png.Encode)
// measure it on a twelve-clan battle; BenchmarkStatic times each test
// scene's static layer drawn afresh; BenchmarkPlayedPictures draws every
// picture of each rule system's demonstration (bot/demos) and of a
// battle between two greedy players on one of its prepared scenarios,
// both played through the bot's router, beside a plain gg drawing of
// the same picture (the ratio in processor time, on which its goal is
// judged, and in wall time), and counts the grounds it had to draw: the frame
// follows the last step, and its zoom level with it, so a battle draws
// one for each table (its terrain's shapes) and level it shows, however
// many frames and whatever its zones.
// Up to 8 MB of grounds and 8 MB of frames are kept, the least recently
// used going first: an open table's ground at the bot's size is 10 to
// 500 KB, a hex map's 0.8 to 1 MB, a frame 70 to 600 KB, so that many
// busy channels showing a few frames each still find most of theirs.
//
// # Files
//
// render.go has the Renderer and the pipeline; layout.go maps positions
// to pixels; frame.go chooses the part of an open table shown;
// static.go draws and caches the static layer, its ground and each
// frame's cut of it (runs.go keeps them as runs of pixels; zones.go
// tints the zones onto the cut); pieces.go draws
// pieces and tokens and places labels (with spatial.go); marks.go draws
// the last step; legend.go the header and legend; bands.go paints in
// bands; fill.go fills small shapes; style.go the colours; text.go the
// fonts; palette.go the palette; png.go the encoder; cache.go the caches
// of layers, palettes and compressed pieces; geom.go and pool.go are
// helpers.
package render
