package web

import (
	"bytes"
	_ "embed"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"strconv"
)

// The pages' icon is a hex on the pages' accent colour: favicon.svg,
// which every page links, and the same drawn as a 32-pixel PNG for
// /favicon.ico, which browsers ask for by themselves (opening a
// picture, say).

//go:embed favicon.svg
var faviconSVG []byte

// faviconPNG draws the icon of favicon.svg, 32 pixels square, each pixel
// sampled 4 by 4 times.
func faviconPNG() []byte {
	accent, paper := color.NRGBA{0x8a, 0x3b, 0x12, 0xff}, color.NRGBA{0xfb, 0xf8, 0xf2, 0xff}
	hex := [][2]float64{{16, 4.5}, {26, 10.25}, {26, 21.75}, {16, 27.5}, {6, 21.75}, {6, 10.25}}
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for y := range 32 {
		for x := range 32 {
			var in, light float64
			for sy := range 4 {
				for sx := range 4 {
					px, py := float64(x)+(float64(sx)+0.5)/4, float64(y)+(float64(sy)+0.5)/4
					if !inRounded(px, py, 32, 6) {
						continue
					}
					in++
					ring := math.Inf(1)
					for i := range hex {
						a, b := hex[i], hex[(i+1)%len(hex)]
						ring = math.Min(ring, segmentDistance(px, py, a, b))
					}
					if ring <= 1.25 || math.Hypot(px-16, py-16) <= 3.5 {
						light++
					}
				}
			}
			if in == 0 {
				continue
			}
			t := light / in
			mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
			img.SetNRGBA(x, y, color.NRGBA{mix(accent.R, paper.R), mix(accent.G, paper.G), mix(accent.B, paper.B), uint8(math.Round(255 * in / 16))})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		// Encoding a small image in memory does not fail.
		panic(err)
	}
	return buf.Bytes()
}

// inRounded reports whether (x, y) lies in the square of side s from the
// origin with corners rounded to radius r.
func inRounded(x, y, s, r float64) bool {
	cx, cy := math.Max(r, math.Min(x, s-r)), math.Max(r, math.Min(y, s-r))
	return x >= 0 && y >= 0 && x <= s && y <= s && math.Hypot(x-cx, y-cy) <= r
}

// segmentDistance is the distance from (x, y) to the segment a b.
func segmentDistance(x, y float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := math.Max(0, math.Min(1, ((x-a[0])*dx+(y-a[1])*dy)/(dx*dx+dy*dy)))
	return math.Hypot(x-a[0]-t*dx, y-a[1]-t*dy)
}

// serveIcon answers with an icon, kept by browsers for a day.
func serveIcon(contentType string, b []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.Write(b)
	}
}
