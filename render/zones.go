package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"

	"github.com/golang/freetype/raster"
	"github.com/rhapsode/rhapsode/engine"
)

// Zones come and go while a table stays: deployment zones until the
// battle starts, a hex leader's command range round whoever is active.
// So a table's ground is drawn without them (drawGroundLayer), once, and
// each frame cut from it has them tinted in: the ground's bare sand
// under a zone takes the zone's colour, in the share of each pixel that
// is bare sand (kept in the ground's alpha) and that the zone covers.
// Terrain and grid lines stay over the zone, as when the zone's fill was
// drawn first and the rest over it; only where a zone's edge runs
// between two cells may a pixel differ by a shade, under a grid line.

// tintZones tints v's zones onto img, the frame of board b just cut from
// its ground, whose alpha still says how much of each pixel is bare.
// Each side's zones are filled as one shape, so that cells side by side
// join without a seam.
func tintZones(img *image.RGBA, v *engine.View, b *board) {
	for side := range zoneFill {
		var shapes [][]pt
		for _, z := range v.Zones {
			if sideOf(z.Side) == side {
				shapes = append(shapes, zoneShapes(b, z)...)
			}
		}
		if len(shapes) > 0 {
			tint(img, shapes, &tintPainter{img: img, fill: zoneFill[side], d: [3]int32{
				int32(zoneFill[side].R) - int32(tableSand.R),
				int32(zoneFill[side].G) - int32(tableSand.G),
				int32(zoneFill[side].B) - int32(tableSand.B),
			}})
		}
	}
}

// zoneShapes is the outline of z on board b, in pixels, as the fresh
// drawing fills it (drawOpenGround, drawGridCells): on an open table its
// box cut to the frame's table; on a square grid the box round its
// cells; on a hex map each of its hexes in the frame.
func zoneShapes(b *board, z engine.Zone) [][]pt {
	box := func(r rect) []pt { return []pt{{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}} }
	switch b.kind {
	case engine.OpenTable:
		if r := openZone(b, z); r.w() > 0 && r.h() > 0 {
			return [][]pt{box(r)}
		}
	case engine.SquareGrid:
		if r, found := gridZone(b, z); found {
			return [][]pt{box(r)}
		}
	case engine.HexGrid:
		// The zone's cells in the frame, without walking the frame's
		// every cell for each zone: a command range is a zone a hex.
		c0 := max(int(math.Round(math.Min(z.Min.X, z.Max.X))), b.c0)
		c1 := min(int(math.Round(math.Max(z.Min.X, z.Max.X))), b.c0+b.cols-1)
		r0 := max(int(math.Round(math.Min(z.Min.Y, z.Max.Y))), b.r0)
		r1 := min(int(math.Round(math.Max(z.Min.Y, z.Max.Y))), b.r0+b.rows-1)
		var out [][]pt
		for c := c0; c <= c1; c++ {
			for r := r0; r <= r1; r++ {
				out = append(out, hexCell(b, c, r))
			}
		}
		return out
	}
	return nil
}

// tint rasterises shapes, by the non-zero rule, and hands their spans to
// p, with a rasteriser only as large as the shapes' box.
func tint(img *image.RGBA, shapes [][]pt, p raster.Painter) {
	var bb rect
	for i, s := range shapes {
		if i == 0 {
			bb = bounds(s...)
		} else {
			bb = bb.union(bounds(s...))
		}
	}
	x0, y0 := max(int(math.Floor(bb.x0))-1, img.Rect.Min.X), max(int(math.Floor(bb.y0))-1, img.Rect.Min.Y)
	x1, y1 := min(int(math.Ceil(bb.x1))+2, img.Rect.Max.X), min(int(math.Ceil(bb.y1))+2, img.Rect.Max.Y)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	r := raster.NewRasterizer(x1-x0, y1-y0)
	r.UseNonZeroWinding = true
	r.Dx, r.Dy = x0, y0
	for _, s := range shapes {
		start := fixedAt(s[0], x0, y0)
		r.Start(start)
		for _, q := range s[1:] {
			r.Add1(fixedAt(q, x0, y0))
		}
		r.Add1(start)
	}
	r.Rasterize(p)
}

// tintPainter moves the bare part of each pixel it paints from the
// table's sand by d, in the share of it the shape covers: a pixel all
// bare and wholly covered (most of a zone) simply becomes fill, the
// zone's colour, which is sand moved by d.
type tintPainter struct {
	img  *image.RGBA
	fill color.RGBA
	d    [3]int32
}

func (p *tintPainter) Paint(ss []raster.Span, done bool) {
	img := p.img
	for _, s := range ss {
		if s.Y < img.Rect.Min.Y || s.Y >= img.Rect.Max.Y {
			continue
		}
		x0, x1 := max(s.X0, img.Rect.Min.X), min(s.X1, img.Rect.Max.X)
		if x0 >= x1 {
			continue
		}
		row := img.Pix[img.PixOffset(x0, s.Y):img.PixOffset(x1, s.Y)]
		for i := 0; i < len(row); i += 4 {
			px := row[i : i+4 : i+4]
			if px[3] == 0xFF {
				continue // no bare ground
			}
			if px[3] == 0 && s.Alpha == 0xFFFF {
				px[0], px[1], px[2] = p.fill.R, p.fill.G, p.fill.B
				continue
			}
			// The share moved, in 1/(255*0xffff).
			w := int64(0xFF-px[3]) * int64(s.Alpha)
			const den = 0xFF * 0xFFFF
			for c := range 3 {
				d := int64(p.d[c]) * w
				if d >= 0 {
					d = (d + den/2) / den
				} else {
					d = -((-d + den/2) / den)
				}
				px[c] = uint8(min(max(int64(px[c])+d, 0), 255))
			}
		}
	}
}

// opaque makes every pixel of r in img opaque again, once the zones are
// tinted: the ground kept how much of each was bare in its alpha. Two
// pixels at a time.
func opaque(img *image.RGBA, r image.Rectangle) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		i := 0
		for ; i+8 <= len(row); i += 8 {
			binary.LittleEndian.PutUint64(row[i:], binary.LittleEndian.Uint64(row[i:])|0xFF000000FF000000)
		}
		for i += 3; i < len(row); i += 4 {
			row[i] = 0xFF
		}
	}
}
