// age-go: filippo.io/age v1.3.2 on the command line, for parcrypt's age
// interop tests (crates/parcrypt/tests/it/age_interop.rs).
//
//	age-go keygen [-pq]                          an identity file, as age-keygen writes it
//	age-go encrypt [-a] [-p PASS -w LOGN] [-r RECIPIENT]... < plain > file
//	age-go decrypt [-i IDENTITYFILE]... [-p PASS] < file > plain
//
// Recipients: age1…, age1pq1…, ssh-ed25519 …, ssh-rsa …. Identity files:
// age identities one per line, or an SSH private key (PEM). Armor is
// detected on decryption as the age CLI does.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"filippo.io/age"
	"filippo.io/age/agessh"
	"filippo.io/age/armor"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "age-go: "+format+"\n", a...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: age-go keygen|encrypt|decrypt ...")
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	var recipients, identities list
	fs.Var(&recipients, "r", "recipient")
	fs.Var(&identities, "i", "identity file")
	armored := fs.Bool("a", false, "armor")
	pass := fs.String("p", "", "passphrase")
	logN := fs.Int("w", 18, "scrypt work factor")
	pq := fs.Bool("pq", false, "post-quantum key")
	fs.Parse(os.Args[2:])
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()

	switch os.Args[1] {
	case "keygen":
		var i fmt.Stringer
		var r fmt.Stringer
		if *pq {
			k, err := age.GenerateHybridIdentity()
			if err != nil {
				fail("%v", err)
			}
			i, r = k, k.Recipient()
		} else {
			k, err := age.GenerateX25519Identity()
			if err != nil {
				fail("%v", err)
			}
			i, r = k, k.Recipient()
		}
		fmt.Fprintf(out, "# created: %s\n# public key: %s\n%s\n", time.Now().Format(time.RFC3339), r, i)

	case "encrypt":
		var rs []age.Recipient
		for _, s := range recipients {
			var r age.Recipient
			var err error
			switch {
			case strings.HasPrefix(s, "ssh-"):
				r, err = agessh.ParseRecipient(s)
			case strings.HasPrefix(s, "age1pq1"):
				r, err = age.ParseHybridRecipient(s)
			default:
				r, err = age.ParseX25519Recipient(s)
			}
			if err != nil {
				fail("%v", err)
			}
			rs = append(rs, r)
		}
		if *pass != "" {
			r, err := age.NewScryptRecipient(*pass)
			if err != nil {
				fail("%v", err)
			}
			r.SetWorkFactor(*logN)
			rs = append(rs, r)
		}
		var dst io.Writer = out
		var a io.WriteCloser
		if *armored {
			a = armor.NewWriter(out)
			dst = a
		}
		w, err := age.Encrypt(dst, rs...)
		if err != nil {
			fail("%v", err)
		}
		if _, err := io.Copy(w, os.Stdin); err != nil {
			fail("%v", err)
		}
		if err := w.Close(); err != nil {
			fail("%v", err)
		}
		if a != nil {
			if err := a.Close(); err != nil {
				fail("%v", err)
			}
		}

	case "decrypt":
		var ids []age.Identity
		for _, name := range identities {
			data, err := os.ReadFile(name)
			if err != nil {
				fail("%v", err)
			}
			if bytes.HasPrefix(bytes.TrimSpace(data), []byte("-----BEGIN")) {
				id, err := agessh.ParseIdentity(data)
				if err != nil {
					fail("%v", err)
				}
				ids = append(ids, id)
				continue
			}
			parsed, err := age.ParseIdentities(bytes.NewReader(data))
			if err != nil {
				fail("%v", err)
			}
			ids = append(ids, parsed...)
		}
		if *pass != "" {
			id, err := age.NewScryptIdentity(*pass)
			if err != nil {
				fail("%v", err)
			}
			ids = append(ids, id)
		}
		in := bufio.NewReader(os.Stdin)
		var src io.Reader = in
		if start, _ := in.Peek(len(armor.Header)); string(start) == armor.Header {
			src = armor.NewReader(in)
		}
		r, err := age.Decrypt(src, ids...)
		if err != nil {
			fail("%v", err)
		}
		if _, err := io.Copy(out, r); err != nil {
			fail("%v", err)
		}

	default:
		fail("unknown command %q", os.Args[1])
	}
}
