package render

import (
	"bytes"
	"encoding/binary"
	"github.com/klauspost/compress/flate"
	"hash/adler32"
	"hash/crc32"
	"image"
	"runtime"
	"sync"
)

// A paletted PNG written by several cores at once. image/png compresses
// the rows as one deflate stream, on one core; here the rows are cut into
// bands, each band is compressed on its own, and the bands' streams are
// joined into the one zlib stream a PNG holds. That is how pigz writes
// gzip: every band but the last ends with a sync flush, which closes its
// last block on a byte boundary without ending the stream, so the next
// band's blocks follow it directly; the zlib checksum of the whole is
// combined from the bands' checksums. The file decodes to exactly the
// pixels image/png would have written (rows unfiltered, as image/png
// leaves paletted rows), and is a little larger, as each band starts with
// an empty dictionary. The deflate coder is github.com/klauspost/compress's,
// which writes the same format as compress/flate at the same level about
// twice as fast (BenchmarkStages/encode), and a slightly smaller file.

// pngEncoder writes paletted PNGs; its bands are reused from picture to
// picture. It is safe for concurrent use. A band's compressor holds most
// of a megabyte, so the bands kept are as many as the pictures encoded
// at once use (spares, not a sync.Pool, whose slots of one core each
// made a third and a fourth band on two cores when a picture was
// encoded on another core than the last). The zero value keeps none.
type pngEncoder struct {
	bands spares[*pngBand]
}

// newPNGEncoder returns an encoder that keeps the bands of up to
// pictures encoded at once.
func newPNGEncoder(pictures int) pngEncoder {
	return pngEncoder{bands: newSpares[*pngBand](pictures * min(runtime.GOMAXPROCS(0), maxPNGBands))}
}

// maxPNGBands is the most bands a picture is cut into.
const maxPNGBands = 4

// pngBand is one band's compressor and its output.
type pngBand struct {
	out   bytes.Buffer
	zw    *flate.Writer
	sum   uint32 // adler32 of the band's uncompressed rows
	raw   int64  // their length
	err   error
	zeros [1]byte
}

// minBandRows is the fewest rows worth a band of their own.
const minBandRows = 64

// encode writes img to buf as a PNG file. prepare, when set, is asked
// to write each band's rows of img first, on the core that compresses
// them.
func (e *pngEncoder) encode(buf *bytes.Buffer, img *image.Paletted, prepare func(y0, y1 int)) error {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	n := min(runtime.GOMAXPROCS(0), maxPNGBands, max(1, h/minBandRows))
	bands := make([]*pngBand, n)
	for i := range bands {
		b, ok := e.bands.get()
		if !ok {
			b = new(pngBand)
		}
		bands[i] = b
		defer e.bands.put(b)
	}
	var wg sync.WaitGroup
	for i, b := range bands {
		y0, y1 := h*i/n, h*(i+1)/n
		wg.Go(func() {
			if prepare != nil {
				prepare(y0, y1)
			}
			b.compress(img, w, y0, y1, i == n-1)
		})
	}
	wg.Wait()

	buf.WriteString("\x89PNG\r\n\x1a\n")
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(w))
	binary.BigEndian.PutUint32(hdr[4:], uint32(h))
	hdr[8], hdr[9] = 8, 3 // 8 bits a pixel, paletted
	chunk(buf, "IHDR", hdr[:])

	pal := make([]byte, 0, 3*len(img.Palette))
	alpha := make([]byte, 0, len(img.Palette))
	seen := 0 // entries up to the last see-through one
	for i, c := range img.Palette {
		r, g, b, a := c.RGBA()
		if a != 0xFFFF {
			seen = i + 1
		}
		if a > 0 && a != 0xFFFF {
			// PNG's palette holds colours not premultiplied by alpha.
			r, g, b = r*0xFFFF/a, g*0xFFFF/a, b*0xFFFF/a
		}
		pal = append(pal, byte(r>>8), byte(g>>8), byte(b>>8))
		alpha = append(alpha, byte(a>>8))
	}
	chunk(buf, "PLTE", pal)
	if seen > 0 {
		chunk(buf, "tRNS", alpha[:seen])
	}

	// The IDAT chunk: zlib's header, the bands, the combined checksum.
	size := 2 + 4
	for _, b := range bands {
		if b.err != nil {
			return b.err
		}
		size += b.out.Len()
	}
	var word [4]byte
	binary.BigEndian.PutUint32(word[:], uint32(size))
	buf.Write(word[:])
	start := buf.Len()
	buf.WriteString("IDAT")
	buf.Write([]byte{0x78, 0x01}) // deflate, 32 KB window, fastest
	sum := uint32(1)
	for _, b := range bands {
		buf.Write(b.out.Bytes())
		sum = adler32Combine(sum, b.sum, b.raw)
	}
	binary.BigEndian.PutUint32(word[:], sum)
	buf.Write(word[:])
	binary.BigEndian.PutUint32(word[:], crc32.ChecksumIEEE(buf.Bytes()[start:]))
	buf.Write(word[:])

	chunk(buf, "IEND", nil)
	return nil
}

// compress deflates rows y0 to y1 of img, each behind its filter byte
// (none). The last band ends the stream; the others end with a sync
// flush.
func (b *pngBand) compress(img *image.Paletted, w, y0, y1 int, last bool) {
	b.out.Reset()
	b.err = nil
	if b.zw == nil {
		b.zw, b.err = flate.NewWriter(&b.out, flate.BestSpeed)
		if b.err != nil {
			return
		}
	} else {
		b.zw.Reset(&b.out)
	}
	// The checksum of the band, a row (behind its filter byte) at a
	// time: a row the same as the one above has the same checksum, and
	// is added to the band's without reading it again.
	sum, rowSum := uint32(1), uint32(0)
	h := adler32.New()
	var above []byte
	for y := y0; y < y1; y++ {
		row := img.Pix[(y-img.Rect.Min.Y)*img.Stride:][:w]
		b.zw.Write(b.zeros[:])
		b.zw.Write(row)
		if above == nil || !bytes.Equal(row, above) {
			h.Reset()
			h.Write(b.zeros[:])
			h.Write(row)
			rowSum = h.Sum32()
		}
		sum = adler32Combine(sum, rowSum, int64(w+1))
		above = row
	}
	if last {
		b.err = b.zw.Close()
	} else {
		b.err = b.zw.Flush()
	}
	b.sum, b.raw = sum, int64(y1-y0)*int64(w+1)
}

// chunk writes one PNG chunk: its length, type, data and checksum.
func chunk(buf *bytes.Buffer, kind string, data []byte) {
	var word [4]byte
	binary.BigEndian.PutUint32(word[:], uint32(len(data)))
	buf.Write(word[:])
	start := buf.Len()
	buf.WriteString(kind)
	buf.Write(data)
	binary.BigEndian.PutUint32(word[:], crc32.ChecksumIEEE(buf.Bytes()[start:]))
	buf.Write(word[:])
}

// adler32Combine returns the Adler-32 checksum of two byte strings joined
// from the checksums a1 and a2 of each, n2 being the second one's length
// (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, n2 int64) uint32 {
	const base = 65521
	rem := uint32(n2 % base)
	s1 := a1 & 0xFFFF
	s2 := rem * s1 % base
	s1 += (a2 & 0xFFFF) + base - 1
	s2 += (a1 >> 16) + (a2 >> 16) + base - rem
	if s1 >= base {
		s1 -= base
	}
	if s1 >= base {
		s1 -= base
	}
	if s2 >= base<<1 {
		s2 -= base << 1
	}
	if s2 >= base {
		s2 -= base
	}
	return s2<<16 | s1
}
