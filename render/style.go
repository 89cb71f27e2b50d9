package render

import (
	"image/color"
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// The colours of a picture. Groups take the Okabe–Ito palette (Okabe and
// Ito, "Color Universal Design", 2008), designed so that viewers with any
// common colour-vision deficiency can still tell the colours apart; its
// black is left out because outlines and text are black. Everything else
// (table, terrain, zones) is pale and unsaturated so that pieces stand out.
var (
	white     = rgb(0xFFFFFF)
	ink       = rgb(0x1A1A1A) // text, outlines
	rulerInk  = rgb(0x4A4A4A)
	tableSand = rgb(0xEFE9DA)
	tableEdge = rgb(0x5A5248)
	gridLine  = rgb(0xDAD2BF)
	hexLabel  = rgb(0x575042) // 4.7:1 on the darkest ground a hex has (rough)
	gridDark  = rgb(0xB4A98F)

	zoneFill   = [2]color.RGBA{rgb(0xDCE6EF), rgb(0xF3E2D3)}
	zoneBorder = [2]color.RGBA{rgb(0x6F8397), rgb(0xA7805F)}
	// zoneText names a zone: its border's hue, dark enough for 4.5:1 on
	// the zone and on the label's white halo alike.
	zoneText = [2]color.RGBA{rgb(0x4A5D70), rgb(0x7A5535)}

	roughFill    = rgb(0xD5C6AA)
	roughHatch   = rgb(0xA08C66)
	roughEdge    = rgb(0x7D6B4A)
	streamFill   = rgb(0xA9D3EE)
	streamHatch  = rgb(0xD8EDF9)
	streamEdge   = rgb(0x2F7DB4)
	roadFill     = rgb(0xE2D8C2)
	roadEdge     = rgb(0xA8966F)
	coverFill    = rgb(0xBCD5AB)
	coverTree    = rgb(0x6E9A58)
	coverEdge    = rgb(0x4B7639)
	darkFill     = rgb(0x5A5F6E)
	darkHatch    = rgb(0x3C404C)
	darkEdge     = rgb(0x24272F)
	woundFill    = rgb(0xB2182B)
	killCore     = rgb(0xD55E00)
	fireInk      = rgb(0x111111)
	meleePlate   = rgb(0xFFF4C2)
	unknownGroup = rgb(0x9A9A9A)
	keyGrey      = rgb(0x5E5E5E) // the legend's samples, in no group's colour
)

// groupPalette is Okabe–Ito without black, in an order that keeps the
// first few groups furthest apart (blue and orange first), plus a neutral
// grey as the eighth colour.
var groupPalette = [...]color.RGBA{
	rgb(0x0072B2), // blue
	rgb(0xE69F00), // orange
	rgb(0x56B4E9), // sky blue
	rgb(0xD55E00), // vermillion
	rgb(0x009E73), // bluish green
	rgb(0xCC79A7), // reddish purple
	rgb(0xF0E442), // yellow
	rgb(0x999999), // grey
}

func rgb(x uint32) color.RGBA {
	return color.RGBA{uint8(x >> 16), uint8(x >> 8), uint8(x), 0xFF}
}

// mix returns a blended with b, t of the way from a to b.
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xFF}
}

// luminance is c's relative luminance as WCAG 2 defines it: 0 for
// black, 1 for white.
func luminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrast is the WCAG 2 contrast ratio of a and b, from 1 (the same
// lightness) to 21 (black on white). Text must have at least minContrast
// against what it is drawn on.
func contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// minContrast is WCAG 2's least contrast for text (1.4.3, level AA).
const minContrast = 4.5

// groupStyle is how one group's pieces are told apart from the others'.
type groupStyle struct {
	fill color.RGBA
	// light is the second colour of a hatched fill.
	light color.RGBA
	// side is 0 (solid fill) or 1 (hatched fill): the cue that does not
	// rely on colour.
	side int
	// ring counts earlier groups of the same side with the same colour;
	// from the second such group on, the pieces carry that many white
	// dots so the groups stay distinguishable.
	ring int
	// text is the colour of letters drawn on the fill.
	text color.RGBA
	// prefix is the part every label of the group shares ("MYR-"); labels
	// that do not fit on the board are drawn without it.
	prefix string
}

// groupStyles gives each group a colour. Up to eight groups all differ
// in colour. Beyond that a colour is reused first by a group of the
// other side (told apart by the solid or hatched fill), and only then by
// a group of the same side (told apart by dots).
func groupStyles(v *engine.View) []groupStyle {
	out := make([]groupStyle, len(v.Groups))
	var used [len(groupPalette)][2]int
	for i, g := range v.Groups {
		side := sideOf(g.Side)
		best := 0
		for c := 1; c < len(groupPalette); c++ {
			if lessUsed(used[c], used[best], side) {
				best = c
			}
		}
		fill := groupPalette[best]
		out[i] = groupStyle{
			fill:  fill,
			light: mix(fill, white, 0.62),
			side:  side,
			ring:  used[best][side],
			text:  textOn(fill),
		}
		used[best][side]++
	}
	prefixes(v, out)
	return out
}

// lessUsed reports whether a colour used a times (per side) is a better
// pick for a group of side s than one used b times.
func lessUsed(a, b [2]int, s int) bool {
	if a[s] != b[s] {
		return a[s] < b[s]
	}
	return a[0]+a[1] < b[0]+b[1]
}

func sideOf(s int) int {
	if s == 1 {
		return 1
	}
	return 0
}

// textOn returns the ink or white, whichever has the more contrast
// with c. (Judged by luma instead, white would be taken on the bluish
// green and the vermillion, at 3.4 and 3.9:1.)
func textOn(c color.RGBA) color.RGBA {
	if contrast(ink, c) >= contrast(white, c) {
		return ink
	}
	return white
}

// prefixes finds each group's shared label prefix, cut after its last
// separator, so "MYR-W1", "MYR-H" give "MYR-".
func prefixes(v *engine.View, st []groupStyle) {
	seen := make([]bool, len(st))
	for _, p := range v.Pieces {
		if p.Group < 0 || p.Group >= len(st) {
			continue
		}
		if !seen[p.Group] {
			seen[p.Group] = true
			st[p.Group].prefix = p.Label
			continue
		}
		a, b := st[p.Group].prefix, p.Label
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		st[p.Group].prefix = a[:n]
	}
	for i := range st {
		s := st[i].prefix
		cut := -1
		for j := len(s) - 1; j >= 0; j-- {
			if c := s[j]; c == '-' || c == '_' || c == '.' || c == ' ' || c == ':' {
				cut = j + 1
				break
			}
		}
		if cut <= 0 {
			st[i].prefix = ""
		} else {
			st[i].prefix = s[:cut]
		}
	}
	// A prefix that is a whole label would leave that piece nameless.
	for _, p := range v.Pieces {
		if p.Group >= 0 && p.Group < len(st) && len(p.Label) <= len(st[p.Group].prefix) {
			st[p.Group].prefix = ""
		}
	}
}

// pinned lists the colours drawn as flat areas; a table's palette keeps
// them exact.
func pinned() []color.RGBA {
	out := []color.RGBA{
		white, ink, rulerInk, tableSand, tableEdge, gridLine, gridDark, hexLabel,
		zoneFill[0], zoneFill[1], zoneBorder[0], zoneBorder[1], zoneText[0], zoneText[1],
		roughFill, roughHatch, roughEdge, streamFill, streamHatch, streamEdge,
		roadFill, roadEdge, coverFill, coverTree, coverEdge, darkFill, darkHatch, darkEdge,
		woundFill, killCore, fireInk, meleePlate, unknownGroup,
		mix(unknownGroup, white, 0.62),
	}
	for _, c := range groupPalette {
		out = append(out, c, mix(c, white, 0.62))
	}
	return out
}
