package render

import (
	"bytes"
	"encoding/binary"
	"github.com/klauspost/compress/flate"
	"hash/adler32"
	"hash/crc32"
	"hash/maphash"
	"image"
	"runtime"
	"sync"
	"sync/atomic"
)

// A paletted PNG written by several cores at once, from pieces already
// compressed where it can. image/png compresses the rows as one deflate
// stream, on one core; here the rows are cut into pieces of pieceRows
// rows, each piece is compressed on its own, and the pieces' streams are
// joined into the one zlib stream a PNG holds. That is how pigz writes
// gzip: every piece ends with a sync flush, which closes its last block
// on a byte boundary without ending the stream, so the next piece's
// blocks follow it directly, and an empty final block ends the whole;
// the zlib checksum of the whole is combined from the pieces'. The file
// decodes to exactly the pixels image/png would have written (rows
// unfiltered, as image/png leaves paletted rows), and is a little
// larger, as each piece starts with an empty dictionary.
//
// A piece's compressed bytes depend on nothing but its pixels, and from
// one step of a battle to the next most of a picture's rows do not
// change: the open ground, the legend, every unit that did not move. So
// compressed pieces are kept, named by a hash of their rows, and a piece
// shown before is neither mapped to the palette nor compressed again
// (over played battles, half to two thirds of them). The deflate coder is
// github.com/klauspost/compress's, which writes the same format as
// compress/flate at the same level about twice as fast, and a slightly
// smaller file.

// pieceRows is how many rows of a picture are compressed as one piece.
// Smaller pieces are found again more often, but each starts without the
// rows above it to refer to, and costs its block's header.
const pieceRows = 64

// pieceBudget bounds the bytes of compressed pieces a renderer keeps:
// about what the last forty pictures of a battle are made of.
const pieceBudget = 2 << 20

// pngEncoder writes paletted PNGs. It is safe for concurrent use.
type pngEncoder struct {
	// writers keeps the compressors of as many pieces as the pictures
	// encoded at once compress at once: each holds most of a megabyte,
	// and a sync.Pool, whose slots are one a core, keeps more of them on
	// a machine whose pictures are encoded on changing cores.
	writers spares[*pieceWriter]
	// pieces keeps the pieces compressed lately, by pieceKey.
	pieces cache[pieceKey, *pngPiece]
	seed   maphash.Seed
	// written and compressed count the pieces written and those among
	// them that had to be compressed, for the benchmarks.
	written, compressed atomic.Int64
}

// newPNGEncoder returns an encoder keeping up to budget bytes of
// compressed pieces, and the compressors of up to pictures encoded at
// once.
func newPNGEncoder(budget, pictures int) *pngEncoder {
	return &pngEncoder{
		writers: newSpares[*pieceWriter](pictures * min(runtime.GOMAXPROCS(0), maxPNGWorkers)),
		pieces:  cache[pieceKey, *pngPiece]{max: budget / 64, budget: budget, size: func(p *pngPiece) int { return len(p.z) + 64 }},
		seed:    maphash.MakeSeed(),
	}
}

// maxPNGWorkers bounds the cores a picture is compressed on.
const maxPNGWorkers = 4

// pieceKey names a piece of a picture by its size and a hash of what
// its rows are made from (made), or of its palette indices.
type pieceKey struct {
	w, h int
	made bool
	sum  uint64
}

// pngPiece is a piece of a picture's rows, each behind its filter byte
// (none), compressed: z ends with a sync flush; adler is the Adler-32
// checksum of the raw bytes, raw their length.
type pngPiece struct {
	z     []byte
	adler uint32
	raw   int64
}

// pieceWriter is a compressor and its output, reused from piece to piece.
type pieceWriter struct {
	out   bytes.Buffer
	zw    *flate.Writer
	zeros [1]byte
}

// pictureRows makes a picture's palette indices a piece of rows at a
// time, and names a piece before making it, so that a piece found
// compressed need not be made at all.
type pictureRows interface {
	// name writes into h what rows y0 to y1 are made from: the same
	// for two pieces only if their rows are the same.
	name(h *maphash.Hash, y0, y1 int)
	// write writes rows y0 to y1 of the paletted picture.
	write(y0, y1 int)
}

// encode writes img to buf as a PNG file. With rows set, img's rows are
// written by rows, each piece's on the core that compresses it, and only
// if the piece is not found compressed; without, img holds them all.
func (e *pngEncoder) encode(buf *bytes.Buffer, img *image.Paletted, rows pictureRows) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	pieces := make([]*pngPiece, (h+pieceRows-1)/pieceRows)
	n := min(runtime.GOMAXPROCS(0), maxPNGWorkers, len(pieces))
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for j := len(pieces) * i / n; j < len(pieces)*(i+1)/n; j++ {
				y0, y1 := j*pieceRows, min(h, (j+1)*pieceRows)
				pieces[j] = e.piece(img, rows, w, y0, y1)
			}
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

	// The IDAT chunk: zlib's header, the pieces, an empty final block
	// (fixed codes, the end of block at once), the combined checksum.
	const final = "\x03\x00"
	size := 2 + len(final) + 4
	for _, p := range pieces {
		size += len(p.z)
	}
	var word [4]byte
	binary.BigEndian.PutUint32(word[:], uint32(size))
	buf.Write(word[:])
	start := buf.Len()
	buf.WriteString("IDAT")
	buf.Write([]byte{0x78, 0x01}) // deflate, 32 KB window, fastest
	sum := uint32(1)
	for _, p := range pieces {
		buf.Write(p.z)
		sum = adler32Combine(sum, p.adler, p.raw)
	}
	buf.WriteString(final)
	binary.BigEndian.PutUint32(word[:], sum)
	buf.Write(word[:])
	binary.BigEndian.PutUint32(word[:], crc32.ChecksumIEEE(buf.Bytes()[start:]))
	buf.Write(word[:])

	chunk(buf, "IEND", nil)
}

// piece returns rows y0 to y1 of img compressed: as kept, when a piece
// named the same was compressed lately.
func (e *pngEncoder) piece(img *image.Paletted, rows pictureRows, w, y0, y1 int) *pngPiece {
	var h maphash.Hash
	h.SetSeed(e.seed)
	if rows != nil {
		rows.name(&h, y0, y1)
	} else {
		for y := y0; y < y1; y++ {
			h.Write(img.Pix[(y-img.Rect.Min.Y)*img.Stride:][:w])
		}
	}
	key := pieceKey{w: w, h: y1 - y0, made: rows != nil, sum: h.Sum64()}
	e.written.Add(1)
	return e.pieces.get(key, func() *pngPiece {
		e.compressed.Add(1)
		if rows != nil {
			rows.write(y0, y1)
		}
		return e.compress(img, w, y0, y1)
	})
}

// compress deflates rows y0 to y1 of img, each behind its filter byte
// (none), ending with a sync flush.
func (e *pngEncoder) compress(img *image.Paletted, w, y0, y1 int) *pngPiece {
	pw, ok := e.writers.get()
	if !ok {
		pw = new(pieceWriter)
		zw, err := flate.NewWriter(&pw.out, flate.BestSpeed)
		if err != nil {
			panic(err) // only for a level that does not exist
		}
		pw.zw = zw
	}
	defer e.writers.put(pw)
	pw.out.Reset()
	pw.zw.Reset(&pw.out)
	// The checksum of the piece, a row (behind its filter byte) at a
	// time: a row the same as the one above has the same checksum, and
	// is added to the piece's without reading it again. Writing to a
	// bytes.Buffer does not fail.
	sum, rowSum := uint32(1), uint32(0)
	h := adler32.New()
	var above []byte
	for y := y0; y < y1; y++ {
		row := img.Pix[(y-img.Rect.Min.Y)*img.Stride:][:w]
		pw.zw.Write(pw.zeros[:])
		pw.zw.Write(row)
		if above == nil || !bytes.Equal(row, above) {
			h.Reset()
			h.Write(pw.zeros[:])
			h.Write(row)
			rowSum = h.Sum32()
		}
		sum = adler32Combine(sum, rowSum, int64(w+1))
		above = row
	}
	pw.zw.Flush()
	return &pngPiece{z: bytes.Clone(pw.out.Bytes()), adler: sum, raw: int64(y1-y0) * int64(w+1)}
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
