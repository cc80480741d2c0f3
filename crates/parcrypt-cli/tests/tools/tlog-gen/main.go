// Command tlog-gen writes a C2SP tlog-tiles log to a directory, with
// golang.org/x/mod/sumdb/tlog computing every hash and tile: an
// implementation independent of parcrypt's, for its interop tests.
//
//	go run . -out DIR -sizes 300,1000 [-origin NAME]
//
// The log grows to each size in turn (the last is the checkpoint's), and the
// tiles and entry bundles of every step are written, as a real log that
// keeps its old partial tiles would have them. Entry i is deterministic:
// (i*37)%41 bytes (some empty), and 256 to 305 bytes for every hundredth
// (a length with a high byte). The
// checkpoint is signed with a fixed Ed25519 test key, so the output is
// byte-for-byte reproducible.
package main

import (
	"bytes"
	"encoding/base64"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func entry(i int64) []byte {
	n := int((i * 37) % 41)
	if i%100 == 7 {
		n = 256 + int(i%50) // a length with a high byte
	}
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(int64(j)*31 + i*7)
	}
	return b
}

// c2spPath turns x/mod's "tile/8/L/N[.p/W]" into C2SP's "tile/L/N[.p/W]"
// (C2SP fixes the height at 8 and drops it from the path).
func c2spPath(t tlog.Tile) string {
	p := t.Path()
	prefix := "tile/8/"
	if !strings.HasPrefix(p, prefix) {
		log.Fatalf("unexpected tile path %q", p)
	}
	return "tile/" + strings.TrimPrefix(p, prefix)
}

func write(dir, rel string, data []byte) {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}
}

func main() {
	out := flag.String("out", "", "directory to write the log into")
	sizesFlag := flag.String("sizes", "1000", "comma-separated tree sizes the log grows through")
	origin := flag.String("origin", "example.com/parcrypt-test-log", "checkpoint origin line")
	flag.Parse()
	if *out == "" {
		log.Fatal("-out is required")
	}
	var sizes []int64
	for _, s := range strings.Split(*sizesFlag, ",") {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || (len(sizes) > 0 && n < sizes[len(sizes)-1]) {
			log.Fatalf("bad -sizes %q", *sizesFlag)
		}
		sizes = append(sizes, n)
	}

	var stored []tlog.Hash
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		hs := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			hs[i] = stored[x]
		}
		return hs, nil
	})

	var n int64
	for _, size := range sizes {
		old := n
		for ; n < size; n++ {
			hs, err := tlog.StoredHashes(n, entry(n), reader)
			if err != nil {
				log.Fatal(err)
			}
			stored = append(stored, hs...)
		}
		for _, t := range tlog.NewTiles(8, old, size) {
			data, err := tlog.ReadTileData(t, reader)
			if err != nil {
				log.Fatal(err)
			}
			write(*out, c2spPath(t), data)
			if t.L == 0 {
				// The entry bundle of the same span and width.
				var bundle bytes.Buffer
				for i := t.N * 256; i < t.N*256+int64(t.W); i++ {
					e := entry(i)
					bundle.Write([]byte{byte(len(e) >> 8), byte(len(e))})
					bundle.Write(e)
				}
				rel := strings.Replace(c2spPath(t), "tile/0/", "tile/entries/", 1)
				write(*out, rel, bundle.Bytes())
			}
		}
	}

	root, err := tlog.TreeHash(n, reader)
	if err != nil {
		log.Fatal(err)
	}
	text := fmt.Sprintf("%s\n%d\n%s\n", *origin, n, base64.StdEncoding.EncodeToString(root[:]))
	// A fixed test key: 32 zero-free bytes of "seed", so signatures repeat.
	seed := bytes.Repeat([]byte{0x5e}, 32)
	skey, _, err := note.GenerateKey(bytes.NewReader(seed), *origin)
	if err != nil {
		log.Fatal(err)
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		log.Fatal(err)
	}
	signed, err := note.Sign(&note.Note{Text: text}, signer)
	if err != nil {
		log.Fatal(err)
	}
	write(*out, "checkpoint", signed)
	fmt.Printf("%d %x\n", n, root[:])
}
